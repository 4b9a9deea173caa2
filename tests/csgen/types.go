package csgen

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// vtype is a type values of which the program can make, hold, pass and
// mix into its checksum.
type vtype struct {
	cs      string                                          // C# name
	feat    string                                          // feature tag when used ("" for none)
	make    func(g *gen, d int, sc *scope) string           // an expression of the type
	arith   func(g *gen, t *vtype, d int, sc *scope) string // a compound expression (primitives only)
	obs     func(v string) string                           // a statement mixing v into the checksum
	lit     func(g *gen) string                             // a constant (const fields, optional defaults); nil: none
	value   bool                                            // a value type (may be made nullable)
	noField bool                                            // not for fields of structs (e.g. a generic struct's own type)
}

// local is a variable in scope.
type local struct {
	name  string
	t     *vtype
	ro    bool // a loop variable: read, never assigned
	byRef bool // a ref or in parameter: no lambda may capture it
}

// scope is what an expression may read, and which functions it may call.
type scope struct {
	vars  []local
	calls func(t *vtype) (string, bool) // a call returning t within budget, or false
}

func (sc *scope) with(name string, t *vtype) *scope {
	return &scope{vars: append(append([]local(nil), sc.vars...), local{name: name, t: t}), calls: sc.calls}
}

// withByRef adds a ref or in parameter.
func (sc *scope) withByRef(name string, t *vtype) *scope {
	return &scope{vars: append(append([]local(nil), sc.vars...), local{name: name, t: t, byRef: true}), calls: sc.calls}
}

// forLambda is what a lambda's body may read: no by-ref parameter (C#
// forbids capturing one: CS1628, generator seed 676).
func (sc *scope) forLambda() *scope {
	if sc == nil {
		return nil
	}
	out := &scope{calls: sc.calls}
	for _, v := range sc.vars {
		if !v.byRef {
			out.vars = append(out.vars, v)
		}
	}
	return out
}

func (sc *scope) withRO(name string, t *vtype) *scope {
	return &scope{vars: append(append([]local(nil), sc.vars...), local{name: name, t: t, ro: true}), calls: sc.calls}
}

// writable lists the variables a statement may assign.
func (sc *scope) writable() []local {
	var out []local
	for _, v := range sc.vars {
		if !v.ro {
			out = append(out, v)
		}
	}
	return out
}

// pickVar returns a variable of type t, or "".
func (sc *scope) pickVar(g *gen, t *vtype) string {
	if sc == nil {
		return ""
	}
	var c []string
	for _, v := range sc.vars {
		if v.t == t {
			c = append(c, v.name)
		}
	}
	if len(c) == 0 {
		return ""
	}
	return pick(g, c)
}

// expr returns an expression of type t nested at most d deep.
func (g *gen) expr(t *vtype, d int, sc *scope) string {
	if sc != nil && sc.calls != nil && d > 0 && g.chance(0.12) {
		if c, ok := sc.calls(t); ok {
			return c
		}
	}
	if t.arith != nil && d > 0 && !g.chance(0.3) {
		return t.arith(g, t, d-1, sc)
	}
	if v := sc.pickVar(g, t); v != "" && g.chance(0.6) {
		return v
	}
	return t.make(g, d, sc)
}

// The primitive types.
var (
	tInt, tLong, tUint, tUlong, tShort, tUshort, tByte, tSbyte *vtype
	tDouble, tFloat, tBool, tChar, tDecimal, tString           *vtype
	prims                                                      []*vtype
)

func init() {
	tInt = &vtype{cs: "int", value: true, lit: func(g *gen) string { return intLit(g, 32, "") }, arith: arithInt,
		obs: func(v string) string { return "Chk.L(" + v + ");" }}
	tLong = &vtype{cs: "long", value: true, lit: func(g *gen) string { return intLit(g, 64, "L") }, arith: arithInt,
		obs: func(v string) string { return "Chk.L(" + v + ");" }}
	tUint = &vtype{cs: "uint", value: true, lit: func(g *gen) string { return uintLit(g, 32, "U") }, arith: arithInt,
		obs: func(v string) string { return "Chk.L(" + v + ");" }}
	tUlong = &vtype{cs: "ulong", value: true, lit: func(g *gen) string { return uintLit(g, 64, "UL") }, arith: arithInt,
		obs: func(v string) string { return "Chk.U(" + v + ");" }}
	small := func(cs string, lo, hi int64) *vtype {
		return &vtype{cs: cs, value: true, lit: func(g *gen) string {
			v := lo + g.r.Int63n(hi-lo+1)
			switch g.intn(4) {
			case 0:
				v = lo
			case 1:
				v = hi
			}
			return fmt.Sprintf("(%s)(%d)", cs, v)
		}, arith: func(g *gen, t *vtype, d int, sc *scope) string {
			return fmt.Sprintf("(%s)(%s)", cs, g.expr(tInt, d, sc))
		}, obs: func(v string) string { return "Chk.L(" + v + ");" }}
	}
	tShort = small("short", math.MinInt16, math.MaxInt16)
	tUshort = small("ushort", 0, math.MaxUint16)
	tByte = small("byte", 0, math.MaxUint8)
	tSbyte = small("sbyte", math.MinInt8, math.MaxInt8)
	tDouble = &vtype{cs: "double", value: true, lit: func(g *gen) string { return floatLit(g, 64) }, arith: arithFloat,
		obs: func(v string) string { return "Chk.D(" + v + ");" }}
	tFloat = &vtype{cs: "float", value: true, lit: func(g *gen) string { return floatLit(g, 32) }, arith: arithFloat,
		obs: func(v string) string { return "Chk.F(" + v + ");" }}
	tBool = &vtype{cs: "bool", value: true, lit: func(g *gen) string { return pick(g, []string{"true", "false"}) },
		arith: arithBool, obs: func(v string) string { return "Chk.B(" + v + ");" }}
	tChar = &vtype{cs: "char", value: true, lit: charLit, arith: func(g *gen, t *vtype, d int, sc *scope) string {
		if g.chance(0.5) {
			return "char.ToUpperInvariant(" + g.expr(tChar, d, sc) + ")"
		}
		return "(char)(" + g.expr(tInt, d, sc) + ")"
	}, obs: func(v string) string { return "Chk.C(" + v + ");" }}
	tDecimal = &vtype{cs: "decimal", value: true, lit: func(g *gen) string { return decimalLit(g, true) },
		make: func(g *gen, d int, sc *scope) string { return decimalLit(g, false) },
		arith: func(g *gen, t *vtype, d int, sc *scope) string {
			// Decimal arithmetic throws on overflow: sums and products
			// go through helpers that keep every value under 1e27.
			switch g.intn(5) {
			case 0:
				return "Chk.AddM(" + g.expr(tDecimal, d, sc) + ", " + g.expr(tDecimal, d, sc) + ")"
			case 1:
				return "Chk.AddM(" + g.expr(tDecimal, d, sc) + ", -" + g.expr(tDecimal, d, sc) + ")"
			case 2:
				return "Chk.MulM(" + g.expr(tDecimal, d, sc) + ", " + strconv.Itoa(g.between(-9, 9)) + ")"
			case 3:
				return "decimal.Round(" + g.expr(tDecimal, d, sc) + ", " + strconv.Itoa(g.intn(5)) + ")"
			}
			return "(decimal)(" + g.expr(tInt, d, sc) + ")"
		}, obs: func(v string) string { return "Chk.M(" + v + ");" }}
	tString = &vtype{cs: "string", lit: func(g *gen) string { return stringLit(g, true) },
		make:  func(g *gen, d int, sc *scope) string { return stringLit(g, true) },
		arith: arithString, obs: func(v string) string { return "Chk.S(" + v + ");" }}
	prims = []*vtype{tInt, tLong, tUint, tUlong, tShort, tUshort, tByte, tSbyte, tDouble, tFloat, tBool, tChar, tDecimal, tString}
	for _, p := range prims {
		if p.make == nil {
			lit := p.lit
			p.make = func(g *gen, d int, sc *scope) string { return lit(g) }
		}
	}
}

func intLit(g *gen, bits int, suf string) string {
	var v int64
	switch g.intn(6) {
	case 0:
		v = int64(g.between(-3, 3))
	case 1:
		if bits == 32 {
			return pick(g, []string{"int.MinValue", "int.MaxValue"})
		}
		return pick(g, []string{"long.MinValue", "long.MaxValue"})
	default:
		if bits == 32 {
			v = int64(int32(g.r.Uint32()))
		} else {
			v = int64(g.r.Uint64())
		}
		if g.chance(0.5) {
			v %= 1000
		}
	}
	if v < 0 {
		return fmt.Sprintf("(%d%s)", v, suf)
	}
	return fmt.Sprintf("%d%s", v, suf)
}

func uintLit(g *gen, bits int, suf string) string {
	var v uint64
	switch g.intn(5) {
	case 0:
		v = uint64(g.intn(4))
	case 1:
		if bits == 32 {
			return "uint.MaxValue"
		}
		return "ulong.MaxValue"
	default:
		v = g.r.Uint64()
		if bits == 32 {
			v = uint64(uint32(v))
		}
		if g.chance(0.5) {
			v %= 1000
		}
	}
	return fmt.Sprintf("%d%s", v, suf)
}

func floatLit(g *gen, bits int) string {
	name, suf := "double", "D"
	if bits == 32 {
		name, suf = "float", "F"
	}
	switch g.intn(10) {
	case 0:
		return pick(g, []string{name + ".NaN", name + ".PositiveInfinity", name + ".NegativeInfinity", name + ".Epsilon", name + ".MaxValue", name + ".MinValue"})
	case 1:
		return "0" + suf
	case 2:
		return "(-0.0" + suf + ")"
	}
	v := (g.r.Float64() - 0.5) * math.Pow(10, float64(g.between(-5, 12)))
	s := strconv.FormatFloat(v, 'g', -1, bits)
	if v < 0 {
		return "(" + s + suf + ")"
	}
	return s + suf
}

func decimalLit(g *gen, extreme bool) string {
	if extreme && g.chance(0.2) {
		return pick(g, []string{"decimal.MaxValue", "decimal.MinValue", "0.0000000000000000000000000001m", "-0m", "1.000m"})
	}
	v := g.r.Int63n(2000000000) - 1000000000
	s := strconv.FormatInt(v, 10)
	scale := g.intn(6)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for len(s) <= scale {
		s = "0" + s
	}
	if scale > 0 {
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if neg {
		return "(-" + s + "m)"
	}
	return s + "m"
}

var charLits = []string{`'a'`, `'Z'`, `'0'`, `' '`, `'\0'`, `'\''`, `'\\'`, `'\n'`, `'\u00e9'`, `'\u4e2d'`, `'\uffff'`, `'\ud800'`, `'\udfff'`, `'"'`}

func charLit(g *gen) string { return pick(g, charLits) }

var stringPieces = []string{"pen", "Cart", "order-7", " ", "a b", `\"q\"`, `\\`, `\t`, `\n`, `\u00e9t\u00e9`, `\u4e2d\u6587`,
	`\ud83d\ude00`, `\ud800`, `\udc00x`, `\0`, "password", "ok", "{0}", "%s", "<tag>", "http://x/y?z=1", "Ω", "naïve"}

func stringLit(g *gen, allowNull bool) string {
	switch g.intn(12) {
	case 0:
		return `""`
	case 1:
		if allowNull {
			return "(string)null"
		}
	case 2:
		// Longer than the profiler's default string cap.
		var b strings.Builder
		n := g.between(200, 700)
		for b.Len() < n {
			b.WriteString(pick(g, stringPieces))
		}
		return `"` + b.String() + `"`
	}
	var b strings.Builder
	for i, n := 0, g.between(1, 4); i < n; i++ {
		b.WriteString(pick(g, stringPieces))
	}
	return `"` + b.String() + `"`
}

func arithInt(g *gen, t *vtype, d int, sc *scope) string {
	e := func() string { return g.expr(t, d, sc) }
	div, mod := "Chk.DivI", "Chk.ModI"
	switch t {
	case tLong:
		div, mod = "Chk.DivL", "Chk.ModL"
	case tUint:
		div, mod = "Chk.DivU", "Chk.ModU"
	case tUlong:
		div, mod = "Chk.DivUL", "Chk.ModUL"
	}
	switch g.intn(12) {
	case 0, 1, 2:
		return "(" + e() + " " + pick(g, []string{"+", "-", "*", "&", "|", "^"}) + " " + e() + ")"
	case 3:
		return div + "(" + e() + ", " + e() + ")"
	case 4:
		return mod + "(" + e() + ", " + e() + ")"
	case 5:
		return "(" + e() + pick(g, []string{" << ", " >> "}) + strconv.Itoa(g.intn(40)) + ")"
	case 6:
		return "(" + g.expr(tBool, d, sc) + " ? " + e() + " : " + e() + ")"
	case 7:
		if t == tInt {
			return "Chk.ToI(" + g.expr(tDouble, d, sc) + ")"
		}
		if t == tLong {
			return "Chk.ToL(" + g.expr(tDouble, d, sc) + ")"
		}
	case 8:
		if t == tInt {
			return "(" + g.expr(tString, d, sc) + " ?? \"\").Length"
		}
	case 9:
		if t == tInt || t == tLong {
			return "(-" + e() + ")"
		}
		return "(~" + e() + ")"
	}
	src := pick(g, []*vtype{tInt, tLong, tUint, tUlong, tShort, tByte, tChar, tSbyte, tUshort})
	return "(" + t.cs + ")(" + g.expr(src, d, sc) + ")"
}

func arithFloat(g *gen, t *vtype, d int, sc *scope) string {
	e := func() string { return g.expr(t, d, sc) }
	switch g.intn(8) {
	case 0, 1, 2:
		return "(" + e() + " " + pick(g, []string{"+", "-", "*", "/"}) + " " + e() + ")"
	case 3:
		return "(" + t.cs + ")Math.Sqrt(Math.Abs(" + e() + "))"
	case 4:
		return "(" + t.cs + ")Math.Floor(" + e() + ")"
	case 5:
		return "(" + g.expr(tBool, d, sc) + " ? " + e() + " : " + e() + ")"
	case 6:
		return "(" + t.cs + ")(" + g.expr(pick(g, []*vtype{tDouble, tFloat}), d, sc) + ")"
	}
	return "(" + t.cs + ")(" + g.expr(pick(g, []*vtype{tInt, tLong, tDecimal}), d, sc) + ")"
}

func arithBool(g *gen, t *vtype, d int, sc *scope) string {
	switch g.intn(7) {
	case 0:
		x := pick(g, []*vtype{tInt, tLong, tUint, tDouble, tChar, tDecimal})
		// No '<': mcs reads "a < (F(b, c) ..." as the start of a generic
		// name with a tuple type argument. a < b is written b > a.
		a, b := g.expr(x, d, sc), g.expr(x, d, sc)
		return "((" + a + ")" + pick(g, []string{" >= ", " == ", " != ", " > "}) + "(" + b + "))"
	case 1:
		return "(!" + g.expr(tBool, d, sc) + ")"
	case 2:
		return "(" + g.expr(tBool, d, sc) + pick(g, []string{" && ", " || ", " ^ ", " & "}) + g.expr(tBool, d, sc) + ")"
	case 3:
		return "string.Equals(" + g.expr(tString, d, sc) + ", " + g.expr(tString, d, sc) + ")"
	case 4:
		return "(" + g.expr(tString, d, sc) + " ?? \"\").StartsWith(" + stringLit(g, false) + ", StringComparison.Ordinal)"
	case 5:
		return "double.IsNaN(" + g.expr(tDouble, d, sc) + ")"
	}
	return "((" + g.expr(tInt, d, sc) + " & 1) == 0)"
}

func arithString(g *gen, t *vtype, d int, sc *scope) string {
	switch g.intn(8) {
	case 0, 1:
		return "(" + g.expr(tString, d, sc) + " + " + g.expr(tString, d, sc) + ")"
	case 2:
		return "(" + g.expr(pick(g, []*vtype{tInt, tLong, tUlong, tDecimal}), d, sc) + ").ToString(CultureInfo.InvariantCulture)"
	case 3:
		return "Chk.Str(" + g.expr(tDouble, d, sc) + ")"
	case 4:
		return "(" + g.expr(tString, d, sc) + " ?? \"<null>\").ToUpperInvariant()"
	case 5:
		return "string.Join(\"/\", " + g.expr(tString, d, sc) + ", (" + g.expr(tChar, d, sc) + ").ToString())"
	case 6:
		return "new string(" + g.expr(tChar, d, sc) + ", " + strconv.Itoa(g.intn(9)) + ")"
	}
	return "string.Concat(" + g.expr(tString, d, sc) + ", " + g.expr(tBool, d, sc) + ")"
}
