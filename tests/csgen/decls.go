package csgen

import (
	"fmt"
	"strings"
)

// anyType picks a type from the table for a field, argument or local,
// and records its feature.
func (g *gen) anyType(ok func(*vtype) bool) *vtype {
	for {
		var t *vtype
		if g.chance(0.3) {
			t = pick(g, prims)
		} else {
			t = pick(g, g.types)
		}
		if ok != nil && !ok(t) {
			continue
		}
		if t.feat != "" {
			g.use(t.feat)
		}
		return t
	}
}

func fieldOK(t *vtype) bool { return !t.noField }

// declareTypes writes the program's own enums, structs and classes and
// adds them to the type table.
func (g *gen) declareTypes() {
	g.types = append(append([]*vtype(nil), prims...), bclTypes()...)
	g.decl().l("public interface IMix { void Mix(); }")
	for i, n := 0, g.between(1, 3); i < n; i++ {
		g.declareEnum()
	}
	for i, n := 0, g.between(1, 3); i < n; i++ {
		if g.chance(0.5) {
			g.declareStruct()
		} else {
			g.declareClass()
		}
	}
	g.declareHolder()
}

var enumBases = []struct {
	cs     string
	bits   int
	signed bool
}{{"byte", 8, false}, {"sbyte", 8, true}, {"short", 16, true}, {"ushort", 16, false}, {"int", 32, true},
	{"uint", 32, false}, {"long", 64, true}, {"ulong", 64, false}}

func (g *gen) declareEnum() {
	g.use("enum")
	base := pick(g, enumBases)
	flags := g.chance(0.4)
	name := g.name("E")
	c := g.decl()
	if flags {
		g.use("enum:flags")
		c.l("[Flags]")
	}
	head := "public enum " + name
	if base.cs != "int" || g.chance(0.3) {
		head += " : " + base.cs
		if base.cs != "int" {
			g.use("enum:non-int32")
		}
	}
	c.open("%s", head)
	n := g.between(1, 8)
	if flags && n > base.bits-1 {
		n = base.bits - 1
	}
	var members []string
	for i := 0; i < n; i++ {
		m := g.name("M")
		if g.chance(0.15) {
			m = g.longName("M", g.between(100, 500))
			g.use("enum:long-name")
		}
		members = append(members, m)
		var v string
		switch {
		case flags:
			v = fmt.Sprintf("%d", uint64(1)<<uint(i))
			if i == 0 && g.chance(0.5) {
				v = "0"
			}
		case g.chance(0.5):
			v = fmt.Sprintf("%d", i)
		default:
			max := uint64(1)<<uint(base.bits-1) - 1
			x := g.r.Uint64() % (max + 1)
			if base.signed && g.chance(0.3) {
				v = fmt.Sprintf("-%d", x)
			} else {
				v = fmt.Sprintf("%d", x)
			}
		}
		c.l("%s = %s,", m, v)
	}
	c.close()
	t := &vtype{cs: name, feat: "enum", value: true}
	t.lit = func(g *gen) string { return name + "." + pick(g, members) }
	t.make = func(g *gen, d int, sc *scope) string {
		switch {
		case flags && len(members) > 1 && g.chance(0.4):
			return "(" + name + "." + pick(g, members) + " | " + name + "." + pick(g, members) + ")"
		case g.chance(0.2):
			return fmt.Sprintf("(%s)(%d)", name, g.intn(100))
		}
		return t.lit(g)
	}
	t.obs = func(v string) string { return "Chk.S(" + v + ".ToString()); Chk.L((long)" + v + ");" }
	g.types = append(g.types, t)
}

// fields writes n fields of random types and returns them.
func (g *gen) fields(c *code, n int) []local {
	var fs []local
	for i := 0; i < n; i++ {
		t := g.anyType(fieldOK)
		f := g.name("f")
		if g.chance(0.1) {
			f = pick(g, []string{"Password", "ApiToken", "SessionId"}) + f
		}
		c.l("public %s %s;", t.cs, f)
		fs = append(fs, local{name: f, t: t})
	}
	return fs
}

// ctor writes a constructor setting every field from its argument.
func ctor(c *code, name string, fs []local, base string) {
	var ps, sets []string
	for i, f := range fs {
		ps = append(ps, fmt.Sprintf("%s a%d", f.t.cs, i))
		sets = append(sets, fmt.Sprintf("%s = a%d;", f.name, i))
	}
	c.l("public %s(%s)%s { %s }", name, strings.Join(ps, ", "), base, strings.Join(sets, " "))
}

func mixBody(c *code, fs []local, extra string) {
	c.open("public %svoid Mix()", extra)
	if strings.Contains(extra, "override") {
		c.l("base.Mix();")
	}
	for _, f := range fs {
		c.s(f.t.obs(f.name))
	}
	c.close()
}

func (g *gen) declareStruct() {
	g.use("struct")
	name := g.name("S")
	c := g.decl()
	c.open("public struct %s : IMix", name)
	fs := g.fields(c, g.between(1, 6))
	ctor(c, name, fs, " : this()")
	mixBody(c, fs, "")
	// A mutating instance method: through a ref it changes the caller's copy.
	c.l("public int Bump(int k) { unchecked { Tag += k; return Tag * 7 + k; } }")
	c.l("public int Tag;")
	c.close()
	t := &vtype{cs: name, feat: "struct", value: true}
	types := make([]*vtype, len(fs))
	for i, f := range fs {
		types[i] = f.t
	}
	t.make = func(g *gen, d int, sc *scope) string {
		if g.chance(0.1) {
			return "default(" + name + ")"
		}
		return "new " + name + "(" + g.fmtArgs(types, d-1, sc) + ")"
	}
	t.obs = func(v string) string { return v + ".Mix(); Chk.L(" + v + ".Tag);" }
	nt := &vtype{cs: name + "?", feat: "nullable-struct", value: true}
	nt.make = func(g *gen, d int, sc *scope) string {
		if g.chance(0.3) {
			return "(" + name + "?)null"
		}
		return "(" + name + "?)" + t.make(g, d, sc)
	}
	nt.obs = func(v string) string { return "if (" + v + ".HasValue) " + v + ".Value.Mix(); else Chk.L(-4);" }
	g.types = append(g.types, t, nt)
}

func (g *gen) declareClass() {
	g.use("class")
	name := g.name("C")
	c := g.decl()
	c.open("public class %s : IMix", name)
	fs := g.fields(c, g.between(1, 6))
	c.l("public %s() { }", name)
	ctor(c, name, fs, "")
	mixBody(c, fs, "virtual ")
	if g.chance(0.5) {
		g.use("override-tostring")
		c.l(`public override string ToString() { return "%s#" + %s; }`, name, strings.TrimSpace(toStringOf(fs)))
	}
	c.close()
	types := make([]*vtype, len(fs))
	for i, f := range fs {
		types[i] = f.t
	}
	t := &vtype{cs: name, feat: "class"}
	t.make = func(g *gen, d int, sc *scope) string {
		switch {
		case g.chance(0.1):
			return "(" + name + ")null"
		case g.chance(0.1):
			return "new " + name + "()"
		}
		return "new " + name + "(" + g.fmtArgs(types, d-1, sc) + ")"
	}
	t.obs = func(v string) string { return "if (" + v + " != null) " + v + ".Mix(); else Chk.L(-3);" }
	g.types = append(g.types, t)
}

// toStringOf is an expression of the first field of a primitive type
// that prints deterministically, or a constant.
func toStringOf(fs []local) string {
	for _, f := range fs {
		switch f.t {
		case tInt, tLong, tString, tBool, tChar:
			return "Convert.ToString(" + f.name + ", CultureInfo.InvariantCulture)"
		}
	}
	return `"-"`
}

// declareHolder writes a generic struct and adds its instantiations over
// a reference type, a string and an int: instance methods of a generic
// struct over a reference type are where `this` is a byref into a
// struct whose layout is shared code.
func (g *gen) declareHolder() {
	name := g.name("H")
	c := g.decl()
	c.open("public struct %s<T> : IMix", name)
	c.l("public T Item; public int Tag; public string Label;")
	c.l("public %s(T item, int tag, string label) { Item = item; Tag = tag; Label = label; }", name)
	c.l("public T Get() { return Item; }")
	c.l("public int Touch(int k) { unchecked { Tag = Tag * 3 + k; return Tag; } }")
	c.l("public void Mix() { Chk.O(Item); Chk.L(Tag); Chk.S(Label); }")
	c.close()
	var refs []*vtype
	for _, t := range g.types {
		if !t.value && t.feat != "bcl:object" && !strings.Contains(t.cs, "<") {
			refs = append(refs, t)
		}
	}
	args := []*vtype{tInt, tString}
	if len(refs) > 0 {
		args = append(args, pick(g, refs), pick(g, refs))
	}
	seen := map[string]bool{}
	for _, a := range args {
		if seen[a.cs] {
			continue
		}
		seen[a.cs] = true
		a := a
		t := &vtype{cs: name + "<" + a.cs + ">", feat: "generic-struct", value: true, noField: true}
		if !a.value {
			t.feat = "generic-struct-over-ref"
		}
		t.make = func(g *gen, d int, sc *scope) string {
			return "new " + t.cs + "(" + g.expr(a, d-1, sc) + ", " + g.expr(tInt, d-1, sc) + ", " + stringLit(g, true) + ")"
		}
		t.obs = func(v string) string {
			return v + ".Mix(); Chk.L(" + v + ".Touch(5)); Chk.O(" + v + ".Get());"
		}
		g.types = append(g.types, t)
	}
}
