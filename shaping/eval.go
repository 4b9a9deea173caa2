package shaping

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
)

// The evaluation follows upstream's Cel nodes: an operation on null (or on
// a value clrotel did not capture, which is the same) gives null or false
// rather than failing, numbers compare and add as doubles, and a value's
// truth is Truthy's.

type node interface{ eval(Env) any }

type literal struct{ v any }

func (l literal) eval(Env) any { return l.v }

type root struct{ name string }

func (r root) eval(env Env) any {
	switch r.name {
	case "method":
		return env.Method()
	case "type":
		return env.Type()
	case "arguments":
		// Upstream's arguments is an object[].
		return Collection{Text: "System.Object[]", Size: int64(env.Args())}
	}
	v, _ := env.Value(r.name, 0, nil)
	return v
}

// ref is a path into a call's captured values: a root, the argument's
// index, and member names.
type ref struct {
	root    string
	index   int
	members []string
}

// refOf returns the path n reads, when it is one (ok), or null (a bad
// argument index).
func refOf(n node, env Env) (r ref, ok, null bool) {
	switch x := n.(type) {
	case root:
		if x.name == "instance" || x.name == "return" {
			return ref{root: x.name}, true, false
		}
	case index:
		if rt, isRoot := x.target.(root); isRoot && rt.name == "arguments" {
			i, isInt := x.index.eval(env).(int64)
			if !isInt || i < 0 || i >= int64(env.Args()) {
				return ref{}, false, true
			}
			return ref{root: "arguments", index: int(i)}, true, false
		}
	case member:
		r, ok, null := refOf(x.target, env)
		if ok {
			r.members = append(r.members[:len(r.members):len(r.members)], x.name)
		}
		return r, ok, null
	}
	return ref{}, false, false
}

// lookup returns the captured value at r; a member clrotel did not
// capture as such may still be a string's Length or a collection's Count.
func (r ref) lookup(env Env) any {
	if v, ok := env.Value(r.root, r.index, r.members); ok {
		return v
	}
	if len(r.members) == 0 {
		return nil
	}
	parent := ref{r.root, r.index, r.members[:len(r.members)-1]}
	return builtinMember(parent.lookup(env), r.members[len(r.members)-1])
}

// builtinMember is the members clrotel knows of a value it did not capture
// field by field: a string's Length, an array's Length, a collection's
// Count (upstream reads properties by reflection, ignoring case).
func builtinMember(v any, name string) any {
	switch x := v.(type) {
	case string:
		if strings.EqualFold(name, "Length") {
			return int64(utf16Len(x))
		}
	case Collection:
		if strings.EqualFold(name, "Length") || strings.EqualFold(name, "Count") {
			return x.Size
		}
	}
	return nil
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

type member struct {
	target node
	name   string
}

func (m member) eval(env Env) any {
	if r, ok, null := refOf(m, env); ok || null {
		if null {
			return nil
		}
		return r.lookup(env)
	}
	return builtinMember(m.target.eval(env), m.name)
}

type index struct{ target, index node }

func (x index) eval(env Env) any {
	if r, ok, null := refOf(x, env); ok || null {
		if null {
			return nil
		}
		return r.lookup(env)
	}
	c, ok := x.target.eval(env).(Collection)
	if !ok {
		return nil
	}
	// As upstream: an int index (not a double) within the array.
	i, ok := x.index.eval(env).(int64)
	if !ok || i < 0 {
		return nil
	}
	switch e := c.Elems.(type) {
	case []string:
		if i < int64(len(e)) {
			return e[i]
		}
	case []bool:
		if i < int64(len(e)) {
			return e[i]
		}
	case []int64:
		if i < int64(len(e)) {
			return e[i]
		}
	case []float64:
		if i < int64(len(e)) {
			return e[i]
		}
	}
	return nil
}

type unop struct {
	op string
	x  node
}

func (u unop) eval(env Env) any {
	v := u.x.eval(env)
	if u.op == "!" {
		return !Truthy(v)
	}
	switch x := v.(type) {
	case int64:
		return -x
	case float64:
		return -x
	}
	return nil
}

type cond struct{ c, t, f node }

func (c cond) eval(env Env) any {
	if Truthy(c.c.eval(env)) {
		return c.t.eval(env)
	}
	return c.f.eval(env)
}

type binop struct {
	op   string
	l, r node
}

func (b binop) eval(env Env) any {
	switch b.op {
	case "&&":
		return Truthy(b.l.eval(env)) && Truthy(b.r.eval(env))
	case "||":
		return Truthy(b.l.eval(env)) || Truthy(b.r.eval(env))
	}
	l, r := b.l.eval(env), b.r.eval(env)
	switch b.op {
	case "==":
		return equal(l, r)
	case "!=":
		return !equal(l, r)
	case "<":
		return less(l, r)
	case ">":
		return less(r, l)
	case "<=": // as upstream: not greater (so null <= x holds)
		return !less(r, l)
	case ">=":
		return !less(l, r)
	case "+":
		if ls, ok := l.(string); ok {
			if rs, ok := r.(string); ok {
				return ls + rs
			}
			return nil
		}
	}
	a, aok := number(l)
	c, cok := number(r)
	if !aok || !cok {
		return nil
	}
	switch b.op {
	case "+":
		return a + c
	case "-":
		return a - c
	case "*":
		return a * c
	case "/":
		if c == 0 {
			return nil
		}
		return a / c
	default: // %
		if c == 0 {
			return nil
		}
		return math.Mod(a, c)
	}
}

func equal(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		return ok && fa == fb
	}
	switch x := a.(type) {
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	}
	return false // objects: upstream compares references
}

// less orders numbers and strings (ordinally); any other pair, or null, is
// not ordered.
func less(a, b any) bool {
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		return ok && fa < fb
	}
	if sa, ok := a.(string); ok {
		sb, ok := b.(string)
		return ok && sa < sb
	}
	return false
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

type call struct {
	fn   string
	args []node
}

func (c call) eval(env Env) any {
	v := c.args[0].eval(env)
	switch c.fn {
	case "string":
		return Text(v)
	case "size":
		switch x := v.(type) {
		case string:
			return int64(utf16Len(x))
		case Collection:
			return x.Size
		}
		return nil
	}
	w := c.args[1].eval(env)
	if v == nil || w == nil {
		return false
	}
	s, sub := Text(v), Text(w)
	switch c.fn {
	case "startsWith":
		return strings.HasPrefix(s, sub)
	case "endsWith":
		return strings.HasSuffix(s, sub)
	default:
		return strings.Contains(s, sub)
	}
}

// Truthy is the format's truthiness: a bool itself, a non-empty string, a
// non-zero number, any other value that is not null.
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case int64:
		return x != 0
	case float64:
		return x != 0
	}
	return true
}

// Text is a value as .NET's ToString writes it, which upstream's string()
// and string attributes use: True and False, doubles in their shortest
// round-trip form (1E+15 from 15 digits, 1E-05 below 0.0001), "" for null; a captured object
// or collection, clrotel's rendering of it.
func Text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		if x {
			return "True"
		}
		return "False"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return doubleText(x)
	case Collection:
		return x.Text
	}
	return ""
}

func doubleText(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "∞"
	case math.IsInf(f, -1):
		return "-∞"
	case f == 0:
		return "0"
	}
	if a := math.Abs(f); a >= 1e-4 && a < 1e15 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'E', -1, 64) // 1.5E+20; .NET pads the exponent to 2 digits
	i := strings.IndexByte(s, 'E')
	exp := s[i+2:]
	if len(exp) < 2 {
		exp = "0" + exp
	}
	return s[:i+2] + exp
}
