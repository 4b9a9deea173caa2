package csgen

import "strings"

// fn is a generated arithmetic function others may call.
type fn struct {
	name   string
	params []*vtype
	ret    *vtype
	cost   int // traced calls one call makes, itself included
}

// core writes the Csmith-like part: functions of primitive values with
// random statements, calling earlier functions within a call budget.
func (g *gen) core() {
	c, name := g.unit("arith")
	c.open("public static class %s", name)
	n := g.between(4, 10)
	for k := 0; k < n; k++ {
		g.funcs = append(g.funcs, g.writeFn(c, 300))
	}
	c.open("public static void Run()")
	c.open("unchecked")
	spent := 0
	for i := len(g.funcs) - 1; i >= 0; i-- {
		f := g.funcs[i]
		if spent+f.cost > g.opts.CallLimit {
			continue
		}
		spent += f.cost
		var args []string
		for _, p := range f.params {
			args = append(args, g.expr(p, 2, nil))
		}
		c.s(f.ret.obs(f.name + "(" + strings.Join(args, ", ") + ")"))
	}
	c.close()
	c.close()
	c.close()
}

// writeFn writes one function whose calls (with their own) stay within
// budget.
func (g *gen) writeFn(c *code, budget int) *fn {
	f := &fn{name: g.name("F"), ret: pick(g, prims), cost: 1}
	cur := &scope{}
	var ps []string
	for i, np := 0, g.intn(5); i < np; i++ {
		t := pick(g, prims)
		pn := g.name("p")
		f.params = append(f.params, t)
		ps = append(ps, t.cs+" "+pn)
		cur = cur.with(pn, t)
	}
	avail := append([]*fn(nil), g.funcs...)
	mult := 1
	calls := func(t *vtype) (string, bool) {
		var cands []*fn
		for _, h := range avail {
			if h.ret == t && f.cost+h.cost*mult <= budget {
				cands = append(cands, h)
			}
		}
		if len(cands) == 0 {
			return "", false
		}
		h := pick(g, cands)
		f.cost += h.cost * mult
		plain := &scope{vars: cur.vars}
		var args []string
		for _, p := range h.params {
			args = append(args, g.expr(p, 1, plain))
		}
		return h.name + "(" + strings.Join(args, ", ") + ")", true
	}
	c.open("static %s %s(%s)", f.ret.cs, f.name, strings.Join(ps, ", "))
	c.open("unchecked")
	for i, nl := 0, g.between(1, 4); i < nl; i++ {
		t := pick(g, prims)
		ln := g.name("l")
		sc := &scope{vars: cur.vars, calls: calls}
		c.l("%s %s = %s;", t.cs, ln, g.expr(t, 3, sc))
		cur = cur.with(ln, t)
	}
	var stmts func(n, depth int)
	stmts = func(n, depth int) {
		for i := 0; i < n; i++ {
			sc := &scope{vars: cur.vars, calls: calls}
			w := cur.writable()
			v := w[g.intn(len(w))]
			switch k := g.intn(8); {
			case k <= 1:
				rhs := g.expr(v.t, 3, sc)
				if v.t == tString && strings.Contains(rhs, v.name) {
					// A string built from itself grows by a factor each
					// time: in nested loops, past any memory (seed 790001).
					rhs = "Chk.Cap(" + rhs + ")"
				}
				c.l("%s = %s;", v.name, rhs)
			case k == 2 && v.t != tBool && v.t != tString:
				ops := []string{"+", "-", "^", "|"}
				if v.t == tDecimal || v.t == tDouble || v.t == tFloat {
					ops = ops[:2]
				}
				op := pick(g, ops)
				if v.t == tDecimal {
					// Bounded, as in the expressions (decimal overflow throws).
					c.l("%s = Chk.AddM(%s, %s(%s));", v.name, v.name, strings.TrimPrefix(op, "+"), g.expr(v.t, 2, sc))
					break
				}
				c.l("%s %s= %s;", v.name, op, g.expr(v.t, 2, sc))
			case k == 3 && depth > 0:
				c.open("if (%s)", g.expr(tBool, 2, sc))
				stmts(g.between(1, 2), depth-1)
				c.close()
				c.open("else")
				stmts(g.between(1, 2), depth-1)
				c.close()
			case k == 4 && depth > 0:
				iv := g.name("i")
				times := g.between(1, 5)
				c.open("for (int %s = 0; %s < %d; %s++)", iv, iv, times, iv)
				saved, savedMult := cur, mult
				cur = cur.withRO(iv, tInt)
				mult *= times
				stmts(g.between(1, 3), depth-1)
				cur, mult = saved, savedMult
				c.close()
			case k == 5 && depth > 0:
				c.open("switch (%s & 3)", g.expr(tInt, 2, sc))
				for cs := 0; cs < 2; cs++ {
					c.l("case %d:", cs)
					c.ind++
					stmts(1, depth-1)
					c.l("break;")
					c.ind--
				}
				c.l("default:")
				c.ind++
				stmts(1, depth-1)
				c.l("break;")
				c.ind--
				c.close()
			default:
				c.s(v.t.obs(v.name))
			}
		}
	}
	stmts(g.between(2, 6), 2)
	c.l("return %s;", g.expr(f.ret, 3, &scope{vars: cur.vars, calls: calls}))
	c.close()
	c.close()
	return f
}

// fmtArgs joins expressions of the types ts.
func (g *gen) fmtArgs(ts []*vtype, d int, sc *scope) string {
	var xs []string
	for _, t := range ts {
		xs = append(xs, g.expr(t, d, sc))
	}
	return strings.Join(xs, ", ")
}
