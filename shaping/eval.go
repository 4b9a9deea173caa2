package shaping

type node interface{ eval(Env) any }

type literal struct{ v any }

func (l literal) eval(Env) any { return l.v }

type path struct {
	root    string
	index   int
	members []string
}

func (p path) eval(env Env) any {
	v, ok := env.Value(p.root, p.index, p.members)
	if !ok {
		return nil
	}
	return v
}

type nameOf struct{ which string }

func (n nameOf) eval(env Env) any {
	if n.which == "method" {
		return env.Method()
	}
	return env.Type()
}

type not struct{ n node }

func (n not) eval(env Env) any { return !Truthy(n.n.eval(env)) }

type logic struct {
	or   bool
	l, r node
}

func (l logic) eval(env Env) any {
	a := Truthy(l.l.eval(env))
	if l.or {
		return a || Truthy(l.r.eval(env))
	}
	return a && Truthy(l.r.eval(env))
}

type compare struct {
	op   string
	l, r node
}

func (c compare) eval(env Env) any {
	a, b := c.l.eval(env), c.r.eval(env)
	if fa, ok := number(a); ok {
		if fb, ok := number(b); ok {
			switch c.op {
			case "==":
				return fa == fb
			case "!=":
				return fa != fb
			case "<":
				return fa < fb
			case "<=":
				return fa <= fb
			case ">":
				return fa > fb
			default:
				return fa >= fb
			}
		}
	}
	if sa, ok := a.(string); ok {
		if sb, ok := b.(string); ok {
			switch c.op {
			case "==":
				return sa == sb
			case "!=":
				return sa != sb
			case "<":
				return sa < sb
			case "<=":
				return sa <= sb
			case ">":
				return sa > sb
			default:
				return sa >= sb
			}
		}
	}
	switch c.op {
	case "==":
		return a == b
	case "!=":
		return a != b
	}
	return false // an order between values of different kinds: false
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
