package csgen

import (
	"fmt"
	"strings"
)

func init() {
	unitList = append(unitList,
		unitKind{"generics", (*gen).unitGenerics},
		unitKind{"delegates", (*gen).unitDelegates},
		unitKind{"linq", (*gen).unitLinq},
		unitKind{"iterators", (*gen).unitIterators},
		unitKind{"async", (*gen).unitAsync},
		unitKind{"boxing", (*gen).unitBoxing},
	)
}

// userTypes lists the table's types that satisfy ok.
func (g *gen) userTypes(ok func(*vtype) bool) []*vtype {
	var out []*vtype
	for _, t := range g.types {
		if ok(t) {
			out = append(out, t)
		}
	}
	return out
}

func isClass(t *vtype) bool  { return t.feat == "class" }
func isStruct(t *vtype) bool { return t.feat == "struct" }

// unitGenerics writes constrained generic classes and methods, a generic
// class nested in a generic class, a generic struct used over reference
// types, a generic virtual method and a static generic cache.
func (g *gen) unitGenerics() {
	c, name := g.unit("generics")
	g.use("generic-class")
	g.use("generic-method")
	g.use("generic-constraint")
	g.use("generic-nested")
	g.use("generic-virtual")
	box, pair, cache, vb, vd := g.name("Box"), g.name("Pair"), g.name("Cache"), g.name("V"), g.name("W")
	c.open("public class %s<T> where T : IComparable<T>", box)
	c.l("readonly T[] items; int n;")
	c.l("public %s(int cap) { items = new T[cap]; }", box)
	c.l("public void Add(T x) { if (n < items.Length) items[n++] = x; }")
	c.l("public T Max() { T m = items[0]; for (int i = 1; i < n; i++) if (items[i].CompareTo(m) > 0) m = items[i]; return m; }")
	c.l("public int Count { get { return n; } }")
	c.open("public class Inner<U> where U : class")
	c.l("public U Tag; public T Owner;")
	c.l(`public string Show() { return (Tag == null ? "null" : Tag.GetType().Name) + "/" + Convert.ToString(Owner, CultureInfo.InvariantCulture); }`)
	c.l("public V Both<V>(Func<T, U, V> f) { return f(Owner, Tag); }")
	c.close()
	c.close()
	c.open("public struct %s<TA, TB>", pair)
	c.l("public TA A; public TB B;")
	c.l("public %s(TA a, TB b) { A = a; B = b; }", pair)
	c.l("public TA First() { return A; }")
	c.l("public TB Second() { return B; }")
	c.l("public %s<TB, TA> Swap() { return new %s<TB, TA>(B, A); }", pair, pair)
	c.close()
	c.l("public static class %s<T> { public static int Hits; public static T Last; }", cache)
	c.l("public class %s { public virtual T Echo<T>(T x) { %s<T>.Hits++; %s<T>.Last = x; return x; } }", vb, cache, cache)
	c.l("public class %s : %s { public override T Echo<T>(T x) { Chk.L(1); return base.Echo(x); } }", vd, vb)
	c.open("public static class %s", name)
	c.l("static T Pick<T>(T a, T b, bool first) { return first ? a : b; }")
	c.l("static U Conv<T, U>(T x, Func<T, U> f) where U : struct { return f(x); }")
	c.l("static T Make<T>() where T : class, new() { return new T(); }")
	c.l("static int CountOf<T>(IEnumerable<T> xs) where T : struct { int k = 0; foreach (T x in xs) k++; return k; }")
	c.l("static string Name<T>(T x) { return typeof(T).Name + \":\" + (x == null ? \"null\" : \"set\"); }")
	c.open("public static void Run()")
	c.open("unchecked")
	for _, et := range []*vtype{tInt, tString, tDecimal, tDouble, tLong} {
		if g.chance(0.5) {
			continue
		}
		b := g.name("b")
		c.l("var %s = new %s<%s>(%d);", b, box, et.cs, 4)
		for i, n := 0, g.between(1, 4); i < n; i++ {
			x := g.expr(et, 2, nil)
			if et == tString {
				x = "(" + x + " ?? \"\")"
			}
			c.l("%s.Add(%s);", b, x)
		}
		c.l("var %sm = %s.Max();", b, b)
		c.s(et.obs(b + "m"))
		c.l("Chk.L(%s.Count);", b)
	}
	ut := g.anyType(func(t *vtype) bool { return !t.value && !strings.Contains(t.cs, "[") && !strings.Contains(t.cs, "?") })
	in := g.name("inr")
	c.l("var %s = new %s<int>.Inner<%s> { Tag = %s, Owner = %s };", in, box, ut.cs, g.expr(ut, 2, nil), g.expr(tInt, 2, nil))
	c.l("Chk.S(%s.Show());", in)
	c.l("Chk.L(%s.Both((o, t) => (long)o * 3 + (t == null ? 1 : 2)));", in)
	for i, n := 0, g.between(1, 3); i < n; i++ {
		a, b := g.anyType(fieldOK), g.anyType(fieldOK)
		if !a.value {
			g.use("generic-struct-over-ref")
		}
		p := g.name("pr")
		c.l("var %s = new %s<%s, %s>(%s, %s);", p, pair, a.cs, b.cs, g.expr(a, 2, nil), g.expr(b, 2, nil))
		c.l("var %sa = %s.First();", p, p)
		c.s(a.obs(p + "a"))
		c.l("var %ss = %s.Swap();", p, p)
		c.l("var %sb = %ss.First();", p, p)
		c.s(b.obs(p + "b"))
	}
	t := g.anyType(nil)
	x := g.name("x")
	c.l("var %s = Pick<%s>(%s, %s, %s);", x, t.cs, g.expr(t, 2, nil), g.expr(t, 2, nil), g.expr(tBool, 2, nil))
	c.s(t.obs(x))
	c.l("Chk.S(Name<%s>(%s));", t.cs, x)
	c.l("Chk.L(Conv<string, int>(%s, s => s == null ? -1 : s.Length));", g.expr(tString, 1, nil))
	c.l("Chk.L(CountOf(new %s[] { %s, %s }));", tLong.cs, g.expr(tLong, 1, nil), g.expr(tLong, 1, nil))
	if cls := g.userTypes(isClass); len(cls) > 0 {
		ct := pick(g, cls)
		c.l("var mk = Make<%s>();", ct.cs)
		c.s(ct.obs("mk"))
	}
	c.l("%s v = %s;", vb, pick(g, []string{"new " + vb + "()", "new " + vd + "()"}))
	c.l("Chk.L(v.Echo(%s)); Chk.S(v.Echo(%s));", g.expr(tInt, 1, nil), g.expr(tString, 1, nil))
	c.l("Chk.L(%s<int>.Hits); Chk.L(%s<int>.Last); Chk.S(%s<string>.Last);", cache, cache, cache)
	c.close()
	c.close()
	c.close()
}

// unitDelegates writes delegate types, lambdas, closures (capturing and
// changing locals), multicast delegates, events and anonymous methods.
func (g *gen) unitDelegates() {
	c, name := g.unit("delegates")
	g.use("lambda")
	g.use("closure")
	g.use("delegate")
	g.use("event")
	del := g.name("Op")
	c.l("public delegate long %s(long a, ref int counter);", del)
	c.open("public static class %s", name)
	c.l("static event Action<int> Changed;")
	c.l("static long Twice(long a, ref int c) { c++; return a * 2; }")
	c.open("public static void Run()")
	c.open("unchecked")
	sc := &scope{}
	capt := g.name("cap")
	c.l("int %s = %s;", capt, g.expr(tInt, 2, nil))
	sc = sc.with(capt, tInt)
	p := g.name("x")
	c.l("Func<int, int> f = %s => %s + %s;", p, p, capt)
	c.l("%s = %s;", capt, g.expr(tInt, 2, sc))
	c.l("Chk.L(f(%d));", g.intn(100))
	c.l("%s op = Twice;", del)
	c.l("op += (long a, ref int k) => { k += 2; return a + %d; };", g.intn(50))
	c.l("int cnt = 0; Chk.L(op(%d, ref cnt)); Chk.L(cnt); Chk.L(op.GetInvocationList().Length);", g.intn(1000))
	c.l("var fs = new List<Func<long>>();")
	c.l("for (int i = 0; i < %d; i++) { int j = i; fs.Add(() => (long)j * %s + %s); }", g.between(1, 6), capt, g.expr(tLong, 1, nil))
	c.l("foreach (var h in fs) Chk.L(h());")
	c.l("Changed += v => Chk.L(v); Changed += v => Chk.L((long)v * %d);", g.between(2, 9))
	c.l("Changed(%s);", g.expr(tInt, 1, nil))
	c.l("Func<int, Func<int, long>> curry = a => b => (long)a * b + %s;", capt)
	c.l("Chk.L(curry(%d)(%d));", g.intn(100), g.intn(100))
	c.l("Action<string> say = delegate(string s) { Chk.S(s); };")
	c.l("say(%s);", g.expr(tString, 1, nil))
	t := g.anyType(nil)
	v := g.name("val")
	c.l("%s %s = %s;", t.cs, v, g.expr(t, 2, nil))
	c.l("Action show = () => { %s };", t.obs(v))
	c.l("show();")
	c.l("Predicate<int> even = n => (n & 1) == 0; Chk.B(even(%s));", g.expr(tInt, 1, nil))
	c.l("Comparison<string> cmp = (a, b) => string.CompareOrdinal(a, b); Chk.L(Math.Sign(cmp(%s, %s)));", g.expr(tString, 1, nil), g.expr(tString, 1, nil))
	c.close()
	c.close()
	c.close()
}

// unitLinq writes LINQ queries in method and query syntax.
func (g *gen) unitLinq() {
	c, name := g.unit("linq")
	g.use("linq")
	c.open("public static class %s", name)
	c.open("public static void Run()")
	c.open("unchecked")
	var xs []string
	for i, n := 0, g.between(3, 15); i < n; i++ {
		xs = append(xs, fmt.Sprint(g.between(-1000, 1000)))
	}
	c.l("var xs = new List<int> { %s };", strings.Join(xs, ", "))
	c.l("var words = new string[] { %s };", strings.Join([]string{stringLit(g, false), stringLit(g, false), stringLit(g, false)}, ", "))
	k := g.between(2, 7)
	qs := []string{
		fmt.Sprintf("xs.Where(x => x %% %d == 1).Select(x => (long)x * %d)", k, g.between(2, 9)),
		"xs.OrderBy(x => x % 5).ThenByDescending(x => x)",
		fmt.Sprintf("from x in xs where x > %d orderby x select x + 1", g.between(-500, 500)),
		"xs.GroupBy(x => x & 3).Select(gr => gr.Key * 1000 + gr.Count())",
		"xs.Distinct().Skip(1).Take(4)",
		"xs.Zip(words, (x, w) => w + x.ToString(CultureInfo.InvariantCulture))",
		"xs.SelectMany(x => new[] { x, -x })",
		"xs.Select((x, i) => x * i).Reverse()",
		"words.Select(w => w.Length).Concat(xs)",
		"from w in words from x in xs.Take(2) select w.Length * x",
		"xs.ToLookup(x => x % 3)[1]",
		"xs.ToDictionary(x => x.ToString(CultureInfo.InvariantCulture) + \"#\", x => x).Keys",
	}
	for i, n := 0, g.between(3, 7); i < n; i++ {
		q := pick(g, qs)
		if strings.Contains(q, "ToDictionary") {
			q = "xs.Distinct()." + strings.TrimPrefix(q, "xs.")
		}
		c.l("Chk.E(%s);", q)
	}
	c.l("Chk.L(xs.Aggregate(%dL, (a, b) => a * 31 + b));", g.intn(100))
	c.l("Chk.L(xs.Sum(x => (long)x)); Chk.L(xs.Max()); Chk.L(xs.Min()); Chk.D(xs.Average());")
	c.l("Chk.B(xs.Any(x => x > %d)); Chk.B(xs.All(x => x != 0)); Chk.L(xs.FirstOrDefault(x => x < 0));", g.between(-100, 100))
	c.close()
	c.close()
	c.close()
}

// unitIterators writes iterators with try/finally, yield break, nested
// and generic iterators, consumed fully and in part.
func (g *gen) unitIterators() {
	c, name := g.unit("iterators")
	g.use("iterator")
	c.open("public static class %s", name)
	c.l("static int finallies;")
	c.open("static IEnumerable<int> Count(int n, int step, int stop)")
	c.open("try")
	c.l("for (int i = 0; i < n; i++) { if (i == stop) yield break; yield return i * step; }")
	c.close()
	c.l("finally { finallies++; }")
	c.close()
	c.l("static IEnumerable<string> Words(IEnumerable<int> src) { foreach (var x in src) yield return x.ToString(CultureInfo.InvariantCulture); }")
	c.l("static IEnumerable<T> Twice<T>(T x) { yield return x; yield return x; }")
	c.l("static IEnumerator<long> Powers(long b) { long v = 1; for (int i = 0; i < 5; i++) { yield return v; v *= b; } }")
	// An iterator of a generic class, over the type its instantiation
	// gives (shared code for a reference type).
	c.open("sealed class Bag<T>")
	c.l("readonly T[] xs;")
	// Its two items as arguments: an array of them written at the call
	// site reads wrong for a multidimensional T (new double[,][] is a 2-D
	// array of double[], not an array of double[,]).
	c.l("public Bag(T a, T b) { xs = new T[] { a, b }; }")
	c.l("public IEnumerable<T> Items() { foreach (var x in xs) yield return x; }")
	c.close()
	// An enumerable made in one method and enumerated in another.
	c.l("static IEnumerable<int> Made(int n) { return Count(n, 1, 100); }")
	c.l("static long Consume(IEnumerable<int> xs) { long s = 0; foreach (var x in xs) s += x; return s; }")
	c.open("public static void Run()")
	c.open("unchecked")
	// A long enumeration, and one never disposed (run to its end by hand).
	c.l("long sum = 0; foreach (var x in Count(%d, 1, 100000)) sum += x; Chk.L(sum);", g.between(200, 1200))
	c.l("var m = Count(%d, %d, 100).GetEnumerator(); while (m.MoveNext()) Chk.L(m.Current);", g.between(0, 6), g.between(1, 4))
	bt := g.anyType(nil)
	bv := g.name("b")
	c.l("foreach (%s %s in new Bag<%s>(%s, %s).Items()) { %s }", bt.cs, bv, bt.cs, g.expr(bt, 2, nil), g.expr(bt, 2, nil), bt.obs(bv))
	c.l("Chk.E(Count(%d, %d, %d));", g.between(0, 12), g.between(-3, 7), g.between(0, 12))
	c.l("Chk.E(Words(Count(%d, %d, 100)));", g.between(0, 8), g.between(1, 5))
	c.l("Chk.E(Count(%d, 1, 100).Take(%d));", g.between(3, 10), g.between(0, 3))
	c.l("var e = Powers(%d); while (e.MoveNext()) Chk.L(e.Current); e.Dispose();", g.between(-5, 9))
	t := g.anyType(nil)
	v := g.name("it")
	c.l("foreach (%s %s in Twice<%s>(%s)) { %s }", t.cs, v, t.cs, g.expr(t, 2, nil), t.obs(v))
	// The same enumerable enumerated again: its GetEnumerator makes a
	// fresh enumerator after the first time; the third broken off early.
	g.use("iterator-again")
	c.l("var again = Count(%d, %d, 100); Chk.E(again); Chk.E(again);", g.between(0, 8), g.between(1, 5))
	c.l("foreach (var x in again) { Chk.L(x); if (x >= %d) break; }", g.between(0, 10))
	av := g.name("b")
	c.l("var bag = new Bag<%s>(%s, %s).Items();", bt.cs, g.expr(bt, 2, nil), g.expr(bt, 2, nil))
	c.l("foreach (%s %s in bag) { %s }", bt.cs, av, bt.obs(av))
	c.l("foreach (%s %s in bag) { %s }", bt.cs, av, bt.obs(av))
	// LINQ over an iterator, and a query over one run twice.
	g.use("iterator-linq")
	c.l("Chk.E(Count(%d, %d, 100).Where(x => x %% 2 == 0).Select(x => x * 3));", g.between(0, 10), g.between(1, 4))
	c.l("var q = Count(%d, 1, 100).Where(x => x > %d); Chk.L(q.Count()); Chk.L(q.Sum());", g.between(0, 10), g.between(0, 5))
	// Made in one method, enumerated in another, twice; then on another
	// thread (joined: the program's output stays the seed's).
	g.use("iterator-elsewhere")
	c.l("var made = Made(%d); Chk.L(Consume(made)); Chk.L(Consume(made));", g.between(0, 8))
	c.l("long ts = 0; var th = new Thread(() => { foreach (var x in made) ts += x; }); th.Start(); th.Join(); Chk.L(ts);")
	c.l("var me = Made(%d).GetEnumerator(); long tm = 0; var tt = new Thread(() => { while (me.MoveNext()) tm += me.Current; }); tt.Start(); tt.Join(); Chk.L(tm);", g.between(0, 8))
	c.l("Chk.L(finallies);")
	c.close()
	c.close()
	c.close()
}

// unitAsync writes async methods awaiting completed tasks, other async
// methods, WhenAll, and exceptions through awaits; sometimes real
// asynchrony (Task.Yield, Task.Delay), which makes the number of calls
// depend on timing.
func (g *gen) unitAsync() {
	c, name := g.unit("async")
	g.use("async")
	real := g.chance(0.3)
	wait := "await Task.FromResult(0);"
	if real {
		g.use("async-real")
		g.inexact = true
		wait = pick(g, []string{"await Task.Yield();", "await Task.Delay(1);"})
	}
	c.open("public static class %s", name)
	c.l("static int fin;")
	c.l("static async Task<int> A1(int x) { %s int y = await Task.FromResult(x + %d); return y * 2; }", wait, g.intn(100))
	c.l("static async Task<long> A2(int x) { long s = 0; for (int i = 0; i < %d; i++) s += await A1(x + i); return s; }", g.between(1, 5))
	c.l(`static async Task<string> A3(string s) { try { await A1(1); if (s == null) throw new InvalidOperationException("none"); return s + "!"; } catch (InvalidOperationException e) { return e.Message; } finally { fin++; } }`)
	c.l("static async Task<int> A4() { var r = await Task.WhenAll(A1(1), A1(2), A1(3)); return r[0] + r[1] * 3 + r[2] * 7; }")
	t := g.anyType(nil)
	c.l("static async Task<%s> A5(%s v) { await A1(0); return v; }", t.cs, t.cs)
	// Async methods of a generic class and a generic async method, used
	// over reference types (code shared by those instantiations) and value
	// types.
	g.use("async-generic")
	c.open("public class Store<T>")
	c.l("T last;")
	c.l("public async Task<T> Put(T v) { %s last = v; return await Get(); }", wait)
	c.l("public async Task<T> Get() { await Task.FromResult(0); return last; }")
	c.close()
	c.l("static async Task<TOut> Map<TIn, TOut>(TIn x, Func<TIn, TOut> f) { %s return f(x); }", wait)
	c.open("public static void Run()")
	c.open("unchecked")
	c.l("Chk.L(A2(%s).GetAwaiter().GetResult());", g.expr(tInt, 1, nil))
	c.l("Chk.S(A3(%s).Result);", g.expr(tString, 1, nil))
	c.l("Chk.S(A3(null).Result);")
	c.l("Chk.L(A4().Result);")
	v := g.name("av")
	c.l("var %s = A5(%s).Result;", v, g.expr(t, 2, nil))
	c.s(t.obs(v))
	c.l("Chk.S(new Store<string>().Put(%s).Result);", g.expr(tString, 1, nil))
	c.l("Chk.L(new Store<int>().Put(%s).Result);", g.expr(tInt, 1, nil))
	gv := g.name("ag")
	c.l("var %s = new Store<%s>().Put(%s).Result;", gv, t.cs, g.expr(t, 2, nil))
	c.s(t.obs(gv))
	c.l("Chk.L(Map<string, int>(%s, s => s == null ? -1 : s.Length).Result);", g.expr(tString, 1, nil))
	gm := g.name("ag")
	c.l("var %s = Map<int, %s>(%d, k => %s).Result;", gm, t.cs, g.intn(100), g.expr(t, 2, nil))
	c.s(t.obs(gm))
	c.l("Chk.L(fin);")
	c.close()
	c.close()
	c.close()
}

// unitBoxing boxes structs, enums and primitives to object and to
// interfaces, unboxes them, passes structs by ref, in and out, and
// nullable structs.
func (g *gen) unitBoxing() {
	c, name := g.unit("boxing")
	g.use("boxing")
	c.open("public static class %s", name)
	structs := g.userTypes(isStruct)
	c.l("static object Box<T>(T v) { return v; }")
	c.l("static void Show(object o) { Chk.O(o); IMix m = o as IMix; if (m != null) m.Mix(); }")
	for _, st := range structs {
		s := st.cs
		c.l("static int ByRef%s(ref %s s, int k) { return s.Bump(k); }", s, s)
		c.l("static int ByIn%s(in %s s) { return s.Tag; }", s, s)
		c.l("static void ByOut%s(out %s s) { s = default(%s); s.Bump(3); }", s, s, s)
		c.l("static long Maybe%s(%s? s) { if (s.HasValue) { s.Value.Mix(); return 1; } return -1; }", s, s)
	}
	c.open("public static void Run()")
	c.open("unchecked")
	for i := 0; i < 3; i++ {
		t := pick(g, prims)
		c.l("Show(%s);", "(object)"+g.expr(t, 2, nil))
	}
	for _, st := range structs {
		s := st.cs
		v := g.name("s")
		g.use("param:ref")
		g.use("param:in")
		g.use("param:out")
		g.use("nullable-struct")
		c.l("%s %s = %s;", s, v, st.make(g, 2, nil))
		c.l("Chk.L(ByRef%s(ref %s, %d)); Chk.L(%s.Tag);", s, v, g.intn(100), v)
		c.l("Chk.L(ByIn%s(in %s));", s, v)
		c.l("object o%s = %s; Show(o%s); %s u%s = (%s)o%s; u%s.Mix();", v, v, v, s, v, s, v, v)
		c.l("IMix m%s = %s; m%s.Mix();", v, v, v)
		c.l("Show(Box(%s));", v)
		c.l("%s w%s; ByOut%s(out w%s); Chk.L(w%s.Tag);", s, v, s, v, v)
		c.l("Chk.L(Maybe%s(%s)); Chk.L(Maybe%s(null));", s, v, s)
		c.l("var arr%s = new %s[] { %s, default(%s) }; arr%s[1].Bump(2); Chk.L(arr%s[1].Tag);", v, s, v, s, v, v)
	}
	for _, et := range g.userTypes(func(t *vtype) bool { return t.feat == "enum" }) {
		c.l("Show(%s);", et.make(g, 1, nil))
		c.l("Show(Box(%s));", et.make(g, 1, nil))
	}
	c.close()
	c.close()
	c.close()
}

func init() {
	unitList = append(unitList, unitKind{"members", (*gen).unitMembers})
}

// unitMembers writes the ordinary members of ordinary code: properties,
// an indexer, operators and conversions, IEquatable and IComparable with
// their own hash code, a static constructor, an extension method, using
// and lock, switch on strings, checked arithmetic, type patterns, ref
// returns, tuple deconstruction, and unsafe code with pointers.
func (g *gen) unitMembers() {
	c, name := g.unit("members")
	for _, f := range []string{"property", "indexer", "operator", "static-ctor", "extension", "using", "unsafe-pointer", "ref-return", "pattern", "checked"} {
		g.use(f)
	}
	ext, vec, bag := g.name("Ext"), g.name("Vec"), g.name("Bag")
	scaled := g.name("Scaled")
	c.l("public static class %s { public static long %s(this int x, long k) { unchecked { return x * k + %d; } } }", ext, scaled, g.intn(100))
	c.open("public struct %s : IEquatable<%s>, IComparable<%s>", vec, vec, vec)
	c.l("public int X, Y;")
	c.l("public %s(int x, int y) { X = x; Y = y; }", vec)
	c.l("public static %s operator +(%s a, %s b) { unchecked { return new %s(a.X + b.X, a.Y * %d + b.Y); } }", vec, vec, vec, vec, g.between(1, 5))
	c.l("public static bool operator ==(%s a, %s b) { return a.X == b.X && a.Y == b.Y; }", vec, vec)
	c.l("public static bool operator !=(%s a, %s b) { return !(a == b); }", vec, vec)
	c.l("public static implicit operator long(%s v) { return ((long)v.X << 32) ^ (uint)v.Y; }", vec)
	c.l("public static explicit operator %s(int v) { return new %s(v, ~v); }", vec, vec)
	c.l("public bool Equals(%s o) { return this == o; }", vec)
	c.l("public override bool Equals(object o) { return o is %s && Equals((%s)o); }", vec, vec)
	c.l("public override int GetHashCode() { unchecked { return X * 31 + Y; } }")
	c.l("public int CompareTo(%s o) { return X != o.X ? X.CompareTo(o.X) : Y.CompareTo(o.Y); }", vec)
	c.l(`public override string ToString() { return "(" + X.ToString(CultureInfo.InvariantCulture) + "," + Y.ToString(CultureInfo.InvariantCulture) + ")"; }`)
	c.close()
	c.open("public sealed class %s : IDisposable", bag)
	c.l("public static readonly string Label; public static int Created;")
	c.l("static %s() { Label = %s; Created = %d; }", bag, stringLit(g, false), g.intn(1000))
	c.l("readonly List<long> items = new List<long>();")
	c.l("public int Count { get { return items.Count; } }")
	c.l("public string Name { get; set; }")
	c.l("public long this[int i] { get { return items[i]; } set { items[i] = value; } }")
	c.l("public void Add(long v) { items.Add(v); Created++; }")
	c.l("public bool Disposed;")
	c.l("public void Dispose() { Disposed = true; Chk.L(Count); }")
	c.close()
	c.open("public static class %s", name)
	c.l("static int[] cells = new int[4];")
	c.l("static ref int Cell(int i) { return ref cells[i & 3]; }")
	c.l("static unsafe long SumPtr(int* p, int n, byte* tag) { long s = *tag; for (int i = 0; i < n; i++) s = s * 7 + p[i]; return s; }")
	c.l("static string Kind(object o) { int i; string s; if ((i = o is int ? (int)o : 0) != 0 && o is int k) return \"int\" + k.ToString(CultureInfo.InvariantCulture); if (o is string t) return \"str\" + t.Length.ToString(CultureInfo.InvariantCulture); s = o == null ? \"null\" : \"other\"; return s; }")
	c.open("public static void Run()")
	c.open("unchecked")
	c.l("%s bag;", bag)
	c.open("using (bag = new %s { Name = %s })", bag, g.expr(tString, 1, nil))
	for i, n := 0, g.between(1, 4); i < n; i++ {
		c.l("bag.Add(%s);", g.expr(tLong, 2, nil))
	}
	c.l("bag[0] = bag[0] * 3 + 1; Chk.L(bag[0]); Chk.S(bag.Name);")
	c.l("lock (bag) { Chk.L(bag.Count); }")
	c.close()
	c.l("Chk.B(bag.Disposed); Chk.S(%s.Label); Chk.L(%s.Created);", bag, bag)
	c.l("var v = new %s(%s, %s) + (%s)%s;", vec, g.expr(tInt, 1, nil), g.expr(tInt, 1, nil), vec, g.expr(tInt, 1, nil))
	c.l("long asLong = v; Chk.L(asLong); Chk.S(v.ToString()); Chk.B(v == (%s)%d); Chk.B(v.Equals((object)v));", vec, g.intn(10))
	var vs []string
	for i, n := 0, g.between(2, 6); i < n; i++ {
		vs = append(vs, fmt.Sprintf("new %s(%d, %d)", vec, g.between(-5, 5), g.between(-5, 5)))
	}
	c.l("var list = new List<%s> { %s }; list.Sort(); foreach (var x in list) Chk.S(x.ToString());", vec, strings.Join(vs, ", "))
	c.l("var set = new HashSet<%s>(list); Chk.L(set.Count);", vec)
	c.l("Chk.L((%s).%s(%d));", g.expr(tInt, 1, nil), scaled, g.intn(1000))
	c.l("Chk.S(Kind(%s)); Chk.S(Kind(%s)); Chk.S(Kind(null));", "(object)"+g.expr(tInt, 1, nil), "(object)"+g.expr(tString, 1, nil))
	c.open("switch (%s)", g.expr(tString, 1, nil))
	c.l(`case "pen": Chk.L(1); break;`)
	c.l(`case "ok": case "Cart": Chk.L(2); break;`)
	c.l(`case null: Chk.L(3); break;`)
	c.l(`default: Chk.L(4); break;`)
	c.close()
	c.l("try { checked { int z = unchecked(%s); z += unchecked(%s); Chk.L(z); } } catch (OverflowException) { Chk.L(-99); }", g.expr(tInt, 1, nil), g.expr(tInt, 1, nil))
	c.l("Cell(%d) = %s; Chk.E(cells);", g.intn(4), g.expr(tInt, 1, nil))
	c.l("var (da, db) = (%s, %s); Chk.L(da); Chk.S(db);", g.expr(tInt, 1, nil), g.expr(tString, 1, nil))
	n := g.between(1, 8)
	c.open("unsafe")
	c.l("int* p = stackalloc int[%d]; byte tag = %d;", n, g.intn(256))
	c.l("for (int i = 0; i < %d; i++) p[i] = i * %s;", n, g.expr(tInt, 1, nil))
	c.l("Chk.L(SumPtr(p, %d, &tag));", n)
	c.l("fixed (char* s = %s) { Chk.L(s[0]); }", stringLit(g, false))
	c.close()
	c.close()
	c.close()
	c.close()
}

func init() {
	unitList = append(unitList, unitKind{"reflection", (*gen).unitReflection})
}

// unitReflection calls methods and constructors through reflection and
// Activator, reads fields by name, and passes reflection objects.
func (g *gen) unitReflection() {
	c, name := g.unit("reflection")
	g.use("reflection")
	tgt := g.name("Target")
	t := g.anyType(nil)
	c.open("public class %s", tgt)
	c.l("public %s Field;", t.cs)
	c.l("public int Seen;")
	c.l("public %s() { }", tgt)
	c.l("public %s(%s v) { Field = v; }", tgt, t.cs)
	c.l("public long Add(int a, long b, string s) { unchecked { Seen++; return a + b * 3 + (s == null ? 0 : s.Length); } }")
	c.l("public static string Describe(Type t, object o) { return t.Name + \"/\" + (o == null ? \"null\" : o.GetType().Name); }")
	c.close()
	c.open("public static class %s", name)
	c.open("public static void Run()")
	c.open("unchecked")
	c.l("var ty = typeof(%s);", tgt)
	c.l("var obj = (%s)Activator.CreateInstance(ty, new object[] { (object)%s });", tgt, g.expr(t, 2, nil))
	c.s(t.obs("obj.Field"))
	c.l("var mi = ty.GetMethod(\"Add\");")
	c.l("Chk.O(mi.Invoke(obj, new object[] { %s, %s, %s }));", g.expr(tInt, 1, nil), g.expr(tLong, 1, nil), g.expr(tString, 1, nil))
	c.l("Chk.L(obj.Seen); Chk.S(mi.Name); Chk.L(mi.GetParameters().Length);")
	c.l("Chk.S((string)ty.GetMethod(\"Describe\").Invoke(null, new object[] { ty, obj }));")
	c.l("var fi = ty.GetField(\"Seen\"); fi.SetValue(obj, %d); Chk.O(fi.GetValue(obj));", g.intn(100))
	c.l("var empty = Activator.CreateInstance<%s>(); Chk.L(empty.Seen);", tgt)
	c.l("Func<int, long, string, long> dl = (Func<int, long, string, long>)Delegate.CreateDelegate(typeof(Func<int, long, string, long>), obj, mi); Chk.L(dl(1, 2, \"x\"));")
	c.close()
	c.close()
	c.close()
}
