package csgen

import (
	"fmt"
	"strings"
)

// unitKind is one kind of unit a program may contain.
type unitKind struct {
	name  string
	write func(g *gen)
}

var unitList []unitKind

func init() {
	unitList = []unitKind{
		{"many-args", (*gen).unitManyArgs},
		{"many-args", (*gen).unitManyArgs},
		{"consts", (*gen).unitConsts},
		{"hierarchy", (*gen).unitHierarchy},
		{"exceptions", (*gen).unitExceptions},
		{"threads", (*gen).unitThreads},
		{"recursion", (*gen).unitRecursion},
		{"record", (*gen).unitRecord},
	}
}

var sensitive = []string{"password", "apiToken", "secretKey", "pin"}

// param is one parameter of a generated method.
type param struct {
	name string
	t    *vtype
	mod  string // "", "ref", "out", "in", "params"
	opt  string // default value, "" for none
}

func (p param) decl() string {
	s := p.t.cs + " " + p.name
	switch p.mod {
	case "params":
		s = "params " + p.t.cs + "[] " + p.name
	case "ref", "out", "in":
		s = p.mod + " " + s
	}
	if p.opt != "" {
		s += " = " + p.opt
	}
	return s
}

// unitManyArgs writes a method of many parameters of any type and form,
// and calls it.
func (g *gen) unitManyArgs() {
	c, name := g.unit("many-args")
	c.open("public sealed class %s", name)
	c.l("long seen;")
	var ps []param
	n := g.between(3, 16)
	for i := 0; i < n; i++ {
		p := param{name: g.name("a"), t: g.anyType(nil)}
		if g.chance(0.05) {
			p.name = pick(g, sensitive) + p.name
		}
		switch k := g.intn(10); {
		case k == 0:
			p.mod = "ref"
			g.use("param:ref")
		case k == 1:
			p.mod = "out"
			g.use("param:out")
		case k == 2 && p.t.value:
			p.mod = "in"
			g.use("param:in")
		}
		ps = append(ps, p)
	}
	// Optional parameters come last, then a params array.
	for i, no := 0, g.intn(4); i < no; i++ {
		p := param{name: g.name("o"), t: g.anyType(nil)}
		switch {
		case p.t.lit != nil:
			p.opt = p.t.lit(g)
		case p.t.value:
			p.opt = "default(" + p.t.cs + ")"
		default:
			p.opt = "null"
		}
		g.use("param:optional")
		ps = append(ps, p)
	}
	if g.chance(0.4) {
		ps = append(ps, param{name: g.name("rest"), t: g.anyType(func(t *vtype) bool { return !strings.Contains(t.cs, "[") }), mod: "params"})
		g.use("param:params")
	}
	ret := g.anyType(nil)
	static := g.chance(0.5)
	generic := g.chance(0.3)
	var decls []string
	for _, p := range ps {
		decls = append(decls, p.decl())
	}
	mname := g.name("Take")
	tp := ""
	if generic {
		g.use("generic-method")
		tp = "<TX>"
		decls = append([]string{"TX gen"}, decls...)
	}
	mod := "public "
	if static {
		mod += "static "
	}
	c.open("%s%s %s%s(%s)", mod, ret.cs, mname, tp, strings.Join(decls, ", "))
	c.open("unchecked")
	sc := &scope{}
	for _, p := range ps {
		if p.mod == "out" {
			c.l("%s = %s;", p.name, g.expr(p.t, 2, nil))
		}
	}
	if generic {
		c.l("Chk.O(gen);")
	}
	// The values as the method received them, for the harness to
	// compare with what the profiler captured on entry.
	for _, p := range ps {
		if p.mod != "" || isSensitive(p.name) {
			continue
		}
		if f := argPrinter(p.t); f != "" {
			g.use("value-oracle")
			c.l("Chk.%s(%q, %q, %s);", f, mname, p.name, p.name)
		}
	}
	for _, p := range ps {
		switch p.mod {
		case "params":
			c.l("Chk.L(%s == null ? -1 : %s.Length);", p.name, p.name)
			c.l("if (%s != null) foreach (%s x in %s) { var y = x; %s }", p.name, p.t.cs, p.name, p.t.obs("y"))
			continue
		case "ref":
			c.s(p.t.obs(p.name))
			c.l("%s = %s;", p.name, g.expr(p.t, 2, sc))
		default:
			c.s(p.t.obs(p.name))
		}
		switch p.mod {
		case "params", "out":
		case "ref", "in":
			sc = sc.withByRef(p.name, p.t)
		default:
			sc = sc.with(p.name, p.t)
		}
	}
	if !static {
		c.l("seen++;")
	}
	c.l("return %s;", g.expr(ret, 2, sc))
	c.close()
	c.close()

	c.open("public static void Run()")
	c.open("unchecked")
	var args []string
	if generic {
		gt := g.anyType(nil)
		args = append(args, "("+gt.cs+")"+g.expr(gt, 1, nil))
	}
	named := false
	var after []string
	for _, p := range ps {
		switch {
		case p.mod == "ref" || p.mod == "in":
			v := g.name("v")
			c.l("%s %s = %s;", p.t.cs, v, g.expr(p.t, 2, nil))
			args = append(args, p.mod+" "+v)
			after = append(after, p.t.obs(v))
		case p.mod == "out":
			v := g.name("v")
			c.l("%s %s;", p.t.cs, v)
			args = append(args, "out "+v)
			after = append(after, p.t.obs(v))
		case p.mod == "params":
			if named {
				continue
			}
			for i, k := 0, g.intn(4); i < k; i++ {
				args = append(args, "("+p.t.cs+")"+g.expr(p.t, 1, nil))
			}
		case p.opt != "":
			switch {
			case g.chance(0.3):
				named = true // skipped; later arguments are named
			case named:
				args = append(args, p.name+": "+g.expr(p.t, 2, nil))
				g.use("named-arg")
			default:
				args = append(args, g.expr(p.t, 2, nil))
			}
		default:
			args = append(args, g.expr(p.t, 2, nil))
		}
	}
	recv := name
	if !static {
		recv = "new " + name + "()"
	}
	r := g.name("r")
	c.l("%s %s = %s.%s(%s);", ret.cs, r, recv, mname, strings.Join(args, ", "))
	c.s(ret.obs(r))
	for _, a := range after {
		c.s(a)
	}
	c.close()
	c.close()
	c.close()
}

// unitConsts writes const fields of every constant type, static readonly
// fields of any type and thread-static fields, and reads them.
func (g *gen) unitConsts() {
	c, name := g.unit("consts")
	c.open("public static class %s", name)
	type cf struct {
		name string
		t    *vtype
	}
	var consts []cf
	for _, t := range g.types {
		if t.lit == nil {
			continue
		}
		for i, n := 0, g.between(1, 2); i < n; i++ {
			f := g.name("K")
			if g.chance(0.1) {
				f = g.longName("K", g.between(80, 300))
			}
			c.l("public const %s %s = %s;", t.cs, f, t.lit(g))
			consts = append(consts, cf{f, t})
			if t == tString {
				g.use("const:string")
			}
			if t == tChar {
				g.use("const:char")
			}
			if t == tDecimal {
				g.use("const:decimal")
			}
		}
	}
	c.l(`public const string Nothing = null;`)
	c.l(`public const string Empty = "";`)
	var ro []cf
	for i, n := 0, g.between(2, 6); i < n; i++ {
		t := g.anyType(nil)
		f := g.name("R")
		c.l("public static readonly %s %s = unchecked(%s);", t.cs, f, g.expr(t, 1, nil))
		ro = append(ro, cf{f, t})
		g.use("static-readonly")
	}
	tsT := pick(g, []*vtype{tInt, tLong, tString, tDouble})
	c.l("[ThreadStatic] static %s ts;", tsT.cs)
	c.l("[ThreadStatic] static int tsCount;")
	g.use("thread-static")
	// A method whose optional parameters default to the constants.
	var ps []string
	var obs []string
	for i, k := range consts {
		if i >= 6 {
			break
		}
		ps = append(ps, fmt.Sprintf("%s d%d = %s", k.t.cs, i, k.name))
		obs = append(obs, k.t.obs(fmt.Sprintf("d%d", i)))
	}
	c.l("static void Defaults(%s) { %s }", strings.Join(ps, ", "), strings.Join(obs, " "))
	c.open("public static void Run()")
	c.open("unchecked")
	for _, k := range consts {
		c.s(k.t.obs(name + "." + k.name))
	}
	c.l("Chk.S(Nothing); Chk.S(Empty);")
	for _, k := range ro {
		v := g.name("v")
		c.l("var %s = %s;", v, k.name)
		c.s(k.t.obs(v))
	}
	c.l("Defaults();")
	if len(ps) > 1 {
		c.l("Defaults(%s);", g.expr(consts[0].t, 2, nil))
	}
	c.l("ts = %s; tsCount++;", g.expr(tsT, 2, nil))
	c.l("%s", tsT.obs("ts"))
	c.l("var th = new Thread(() => { tsCount += 5; ts = %s; %s Chk.L(0); });", g.expr(tsT, 1, nil), "")
	c.l("th.Start(); th.Join();")
	c.l("Chk.L(tsCount);")
	c.s(tsT.obs("ts"))
	c.close()
	c.close()
	c.close()
}

// unitHierarchy writes an interface and a class chain at least five deep
// with virtual, abstract, override, new and sealed members.
func (g *gen) unitHierarchy() {
	c, name := g.unit("hierarchy")
	g.use("interface")
	g.use("virtual-override")
	depth := g.between(5, 7)
	iface := g.name("I")
	c.l("public interface %s { long Area(int k); string Label { get; } }", iface)
	names := make([]string, depth)
	fieldsOf := make([][]local, depth)
	genericAt := -1
	if g.chance(0.4) {
		genericAt = g.between(1, depth-2)
		g.use("generic-base")
	}
	for i := 0; i < depth; i++ {
		names[i] = g.name("L")
		head := "public "
		switch {
		case i == 0:
			head += "abstract "
		case i == depth-1:
			head += "sealed "
		}
		cls := names[i]
		if i == genericAt {
			cls += "<TG>"
		}
		head += "class " + cls
		switch {
		case i == 0:
			head += " : " + iface + ", IMix"
		case i-1 == genericAt:
			head += " : " + names[i-1] + "<" + g.anyType(func(t *vtype) bool { return !strings.Contains(t.cs, "?") }).cs + ">"
		default:
			head += " : " + names[i-1]
		}
		c.open("%s", head)
		fs := g.fields(c, g.between(0, 2))
		if i == genericAt {
			c.l("public TG Extra;")
		}
		fieldsOf[i] = fs
		if i == 0 {
			c.l("protected long f0;")
			c.l("public %s(long x) { f0 = x; }", names[i])
			c.l("public abstract long Area(int k);")
			c.l(`public virtual string Label { get { return "%s"; } }`, names[i])
			c.l("public virtual long Twice(long v) { unchecked { return v * 2 + f0; } }")
			c.l("long %s.Area(int k) { return Area(k) + 1; }", iface)
			mixBody(c, fs, "virtual ")
		} else {
			var ps, sets []string
			for j, f := range fs {
				ps = append(ps, fmt.Sprintf("%s a%d", f.t.cs, j))
				sets = append(sets, fmt.Sprintf("%s = a%d;", f.name, j))
			}
			if len(ps) > 0 {
				c.l("public %s(long x) : base(x) { }", names[i])
			}
			ps = append([]string{"long x"}, ps...)
			c.l("public %s(%s) : base(x) { %s }", names[i], strings.Join(ps, ", "), strings.Join(sets, " "))
			over := "override "
			if i == depth-1 {
				over = "sealed override "
			}
			if i == 1 {
				c.l("public %slong Area(int k) { unchecked { return f0 * %d + k; } }", over, g.between(1, 9))
			} else {
				c.l("public %slong Area(int k) { unchecked { return base.Area(k) * %d + %d; } }", over, g.between(1, 5), g.intn(100))
			}
			if g.chance(0.6) {
				c.l(`public override string Label { get { return "%s/" + base.Label; } }`, names[i])
			}
			if g.chance(0.3) {
				g.use("new-member")
				c.l("public new long Twice(long v) { unchecked { return base.Twice(v) + %d; } }", g.intn(50))
			}
			mixBody(c, fs, "override ")
		}
		c.close()
	}
	c.open("public static class %s", name)
	c.open("public static void Run()")
	c.open("unchecked")
	c.l("var all = new List<%s>();", names[0])
	for i := 1; i < depth; i++ {
		var args []string
		args = append(args, g.expr(tLong, 1, nil))
		for _, f := range fieldsOf[i] {
			args = append(args, g.expr(f.t, 2, nil))
		}
		cls := names[i]
		if i == genericAt {
			continue // only through its subclasses
		}
		c.l("all.Add(new %s(%s));", cls, strings.Join(args, ", "))
	}
	c.open("for (int k = 0; k < all.Count; k++)")
	c.l("%s x = all[k];", names[0])
	c.l("Chk.L(x.Area(k)); Chk.S(x.Label); Chk.L(x.Twice(k));")
	c.l("%s s = x; Chk.L(s.Area(k + 1));", iface)
	mid := depth / 2
	if mid == genericAt {
		mid++
	}
	c.l("Chk.B(x is %s); Chk.B((x as %s) != null);", names[mid], names[depth-1])
	c.l("x.Mix();")
	c.close()
	c.close()
	c.close()
	c.close()
}

// unitExceptions throws from several frames: its own exceptions and the
// runtime's (division by zero, null reference, index, cast, overflow),
// caught by type and by filter, with finally blocks and rethrows.
func (g *gen) unitExceptions() {
	c, name := g.unit("exceptions")
	g.use("exception-filter")
	g.use("finally")
	ex := g.name("Ex")
	c.l("public class %s : Exception { public int Code; public %s(string m, int code, Exception inner = null) : base(m, inner) { Code = code; } }", ex, ex)
	c.open("public static class %s", name)
	c.l("static int fin, filters;")
	c.l("static bool Filter(Exception e, int k) { filters++; return ((k + %d) & 1) == 0; }", g.intn(2))
	kinds := []string{
		`throw new ` + ex + `("m" + k.ToString(CultureInfo.InvariantCulture), k);`,
		`int z = k - k; return 10 / z;`,
		`string s = k > 1000000 ? "x" : null; return s.Length;`,
		`int[] a = new int[2]; return a[k + 2];`,
		`object o = "x" + k; return (int)o;`,
		`return checked(int.MaxValue - 1 + k + 2);`,
		`throw new InvalidOperationException("op" + k);`,
	}
	c.open("static int Thrower(int depth, int k)")
	c.open("if (depth == 0)")
	c.open("switch ((k & 0x7fffffff) %% %d)", len(kinds))
	for i, kd := range kinds {
		c.l("case %d: { %s }", i, kd)
	}
	c.l("default: return k;")
	c.close()
	c.close()
	c.open("try")
	c.l("return Thrower(depth - 1, k) + 1;")
	c.close()
	c.open("finally")
	c.l("fin++;")
	c.close()
	c.close()
	c.open("public static void Run()")
	c.open("unchecked")
	c.open("for (int k = %d; k < %d; k++)", g.intn(3), g.between(5, 16))
	c.open("try")
	c.l("Chk.L(Thrower(%d, k * %d));", g.between(0, 6), g.between(1, 5))
	c.close()
	c.l("catch (%s e) when (Filter(e, k)) { Chk.S(e.Message); Chk.L(e.Code); }", ex)
	c.l("catch (%s e) { Chk.L(-e.Code); }", ex)
	c.l("catch (DivideByZeroException) { Chk.L(1001); }")
	c.l("catch (Exception e) when (e is NullReferenceException || e is IndexOutOfRangeException) { Chk.S(e.GetType().Name); }")
	c.l("catch (Exception e) { Chk.S(e.GetType().Name); }")
	c.l("finally { Chk.L(k); }")
	c.close()
	c.open("try")
	c.open("try")
	c.l(`throw new %s(%s, %d);`, ex, stringLit(g, false), g.intn(100))
	c.close()
	c.l("catch (%s e) when (e.Code >= 0) { Chk.L(e.Code); throw; }", ex)
	c.close()
	c.l("catch (Exception e) { Chk.S(e.Message); }")
	c.open("try")
	c.open("try")
	c.l("Thrower(1, 2);")
	c.close()
	c.l(`catch (Exception e) { throw new %s("wrapped", 7, e); }`, ex)
	c.close()
	c.l("catch (%s e) { Chk.S(e.InnerException.GetType().Name); }", ex)
	c.l("Chk.L(fin); Chk.L(filters);")
	c.close()
	c.close()
	c.close()
}

// unitThreads runs work on joined threads, pool tasks and Parallel.For;
// results land in slots and commutative sums, so the output does not
// depend on the schedule.
func (g *gen) unitThreads() {
	c, name := g.unit("threads")
	c.open("public static class %s", name)
	c.l("[ThreadStatic] static long ts;")
	c.l("static readonly object gate = new object();")
	c.l("static long shared; static int done;")
	c.open("static long Work(int id, %s extra)", "string")
	c.open("unchecked")
	c.l("ts = id; long acc = id;")
	sc := (&scope{}).with("acc", tLong).withRO("id", tInt).with("extra", tString)
	c.open("for (int i = 0; i < %d; i++)", g.between(5, 50))
	sc = sc.withRO("i", tInt)
	c.l("acc = acc * 31 + %s; ts += acc & 7;", g.expr(tLong, 2, sc))
	c.close()
	c.l("lock (gate) { shared += acc; }")
	c.l("Interlocked.Increment(ref done);")
	c.l("return acc ^ ts;")
	c.close()
	c.close()
	c.open("public static void Run()")
	n := g.between(2, 4)
	c.l("var results = new long[%d]; var threads = new Thread[%d];", n, n)
	c.open("for (int i = 0; i < %d; i++)", n)
	c.l("int id = i;")
	c.l("threads[i] = new Thread(() => { results[id] = Work(id, %s); });", stringLit(g, true))
	c.l("threads[i].Start();")
	c.close()
	c.l("foreach (var t in threads) t.Join();")
	c.l("Chk.E(results);")
	if g.chance(0.6) {
		g.use("tasks")
		c.l("var tasks = new Task<long>[%d];", n)
		c.l("for (int i = 0; i < tasks.Length; i++) { int id = 100 + i; tasks[i] = Task.Run(() => Work(id, null)); }")
		c.l("Task.WaitAll(tasks);")
		c.l("foreach (var t in tasks) Chk.L(t.Result);")
	}
	if g.chance(0.5) {
		g.use("parallel")
		c.l("var slots = new long[%d];", g.between(2, 8))
		c.l("Parallel.For(0, slots.Length, i => { slots[i] = Work(200 + i, \"p\"); });")
		c.l("Chk.E(slots);")
	}
	c.l("Chk.L(shared); Chk.L(done);")
	c.close()
	c.close()
}

// unitRecursion writes direct, mutual, deep and tree recursion.
func (g *gen) unitRecursion() {
	c, name := g.unit("recursion")
	c.open("public static class %s", name)
	c.l("static long Fib(int n) { return n < 2 ? n : Fib(n - 1) + Fib(n - 2); }")
	c.l("static bool IsEven(int n) { return n == 0 || IsOdd(n - 1); }")
	c.l("static bool IsOdd(int n) { return n != 0 && IsEven(n - 1); }")
	c.l("static long Deep(int n, long acc, string s) { unchecked { if (n == 0) return acc + (s == null ? 0 : s.Length); return Deep(n - 1, acc * 3 + n, s) + 1; } }")
	c.l("static int Ack(int m, int n) { return m == 0 ? n + 1 : n == 0 ? Ack(m - 1, 1) : Ack(m - 1, Ack(m, n - 1)); }")
	c.l("sealed class Node { public Node L, R; public int V; }")
	c.l("static Node Build(int d, int v) { if (d == 0) return null; return new Node { V = v, L = Build(d - 1, v * 2), R = Build(d - 1, v * 2 + 1) }; }")
	c.l("static long Sum(Node n) { return n == null ? 0 : n.V + Sum(n.L) * 3 + Sum(n.R); }")
	c.open("public static void Run()")
	c.l("Chk.L(Fib(%d));", g.between(3, 11))
	c.l("Chk.B(IsEven(%d));", g.between(0, 300))
	c.l("Chk.L(Deep(%d, %d, %s));", g.between(10, 1500), g.intn(100), stringLit(g, true))
	c.l("Chk.L(Ack(2, %d));", g.between(0, 4))
	c.l("Chk.L(Sum(Build(%d, 1)));", g.between(1, 6))
	c.close()
	c.close()
}

// unitRecord is the third reproduction, with random values: a
// class with fields of the common BCL types passed with a decimal, a
// StringBuilder and a boxed decimal.
func (g *gen) unitRecord() {
	c, name := g.unit("record")
	rec := g.name("Rec")
	c.open("public class %s", rec)
	fields := []string{"Guid", "decimal", "DateTime", "TimeSpan", "DateTimeOffset", "Uri", "List<string>", "Dictionary<string, int>", "HashSet<int>", "int?"}
	var fs []local
	for _, cs := range fields {
		for _, t := range append(g.types, prims...) {
			if t.cs == cs {
				f := g.name("P")
				c.l("public %s %s;", cs, f)
				fs = append(fs, local{name: f, t: t})
				if t.feat != "" {
					g.use(t.feat)
				}
				break
			}
		}
	}
	c.close()
	c.open("public static class %s", name)
	c.open("static decimal Apply(%s r, decimal amount, StringBuilder sb, object boxed)", rec)
	c.l(`sb.Append(amount.ToString(CultureInfo.InvariantCulture)).Append('/').Append(Convert.ToString(boxed, CultureInfo.InvariantCulture));`)
	for _, f := range fs {
		c.s(f.t.obs("r." + f.name))
	}
	c.l("return amount + (decimal)boxed;")
	c.close()
	c.open("public static void Run()")
	c.open("unchecked")
	c.l("var r = new %s();", rec)
	for _, f := range fs {
		c.l("r.%s = %s;", f.name, g.expr(f.t, 2, nil))
	}
	c.l("var sb = new StringBuilder();")
	c.l("Chk.M(Apply(r, %s, sb, (object)%s));", decimalLit(g, false), decimalLit(g, false))
	c.l("Chk.S(sb.ToString());")
	c.close()
	c.close()
	c.close()
}

// argPrinter is the Chk method that prints a value of t for the value
// oracle, or "" for a type it does not check.
func argPrinter(t *vtype) string {
	switch t {
	case tInt, tLong, tShort, tSbyte, tByte, tUshort, tUint:
		return "ArgL"
	case tUlong:
		return "ArgU"
	case tDouble:
		return "ArgD"
	case tFloat:
		return "ArgF"
	case tBool:
		return "ArgB"
	case tChar:
		return "ArgC"
	case tString:
		return "ArgS"
	}
	return ""
}

// isSensitive says the profiler redacts a parameter of this name.
func isSensitive(name string) bool {
	n := strings.ToLower(name)
	for _, f := range []string{"password", "passwd", "secret", "token", "apikey", "accesskey", "privatekey", "authorization", "credential", "connectionstring", "cookie", "session"} {
		if strings.Contains(n, f) {
			return true
		}
	}
	return n == "pwd" || n == "pin" || n == "cvv" || n == "ssn" || strings.HasPrefix(n, "pin")
}
