package shaping

import (
	"fmt"
	"strconv"
	"strings"
)

// Expr is a parsed expression of the no-code format's language, as
// upstream's CelLexer and CelParser read it: the roots arguments, instance,
// return, method and type; member access (.Name) and indexing ([i]);
// string, number, bool and null literals; the operators ?:, ||, &&, ==,
// !=, <, <=, >, >=, +, -, *, /, %, ! and unary -, with upstream's
// precedence; and the functions string, size, startsWith, endsWith and
// contains.
type Expr struct {
	src  string
	root node
	uses map[string]bool // the roots it reads: arguments, instance, return, method, type
}

// Uses reports whether the expression reads root (arguments, instance,
// return, method or type).
func (e *Expr) Uses(root string) bool { return e.uses[root] }

// usesElements marks, in Expr.uses, an expression that indexes an array.
const usesElements = "[]"

// ReadsElements reports whether the expression indexes an array (other
// than arguments): the call's array elements must then be read.
func (e *Expr) ReadsElements() bool { return e.uses[usesElements] }

// String returns the expression's source.
func (e *Expr) String() string { return e.src }

// Eval evaluates the expression in env. Its result is nil (null or
// absent), a string, an int64, a float64, a bool or a Collection.
func (e *Expr) Eval(env Env) any { return e.root.eval(env) }

// Env gives an expression the values of one call.
type Env interface {
	// Value returns the value at root (arguments, instance or return),
	// index (the argument's, for arguments) and members (matched without
	// regard to case, as upstream's reflection does), and false when it
	// was not captured.
	Value(root string, index int, members []string) (any, bool)
	// Args is how many arguments the method takes.
	Args() int
	// Method and Type are the method's name and its declaring type's.
	Method() string
	Type() string
}

// Collection is a captured array or collection: its rendering and its
// size, and Elems, the elements of an array of strings, bools, ints or
// longs, or doubles or floats captured whole ([]string, []bool, []int64,
// []float64; nil for any other). Indexing reads Elems; an array-typed
// attribute converts them.
type Collection struct {
	Text  string
	Size  int64
	Elems any
}

// SyntaxError is an expression clrotel does not accept, with the column
// (1-based, in runes of the expression) where the problem is.
type SyntaxError struct {
	Col int
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

// functions are upstream's, with the number of arguments each takes (it
// returns a fixed value for any other number: rejected here).
var functions = map[string]int{"string": 1, "size": 1, "startsWith": 2, "endsWith": 2, "contains": 2}

// ParseExpr parses src, rejecting what upstream's parser rejects and what
// it accepts but can only evaluate to a constant (an unknown identifier or
// function, a function given the wrong number of arguments).
func ParseExpr(src string) (*Expr, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, uses: map[string]bool{}}
	n, err := p.ternary()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, &SyntaxError{t.col, fmt.Sprintf("unexpected %q", t.text)}
	}
	return &Expr{src: src, root: n, uses: p.uses}, nil
}

type parser struct {
	toks []token
	pos  int
	uses map[string]bool
}

func (p *parser) peek() token { return p.toks[p.pos] }
func (p *parser) next() token { t := p.toks[p.pos]; p.pos++; return t }
func (p *parser) isOp(ops ...string) bool {
	t := p.peek()
	if t.kind != tOp {
		return false
	}
	for _, op := range ops {
		if t.text == op {
			return true
		}
	}
	return false
}

func (p *parser) expect(op string) error {
	if !p.isOp(op) {
		t := p.peek()
		if t.kind == tEOF {
			return &SyntaxError{t.col, fmt.Sprintf("want %s; the expression ends", op)}
		}
		return &SyntaxError{t.col, fmt.Sprintf("want %s; found %q", op, t.text)}
	}
	p.next()
	return nil
}

// ternary: or ? or : ternary (upstream reads the true branch as an or:
// a conditional there needs parentheses).
func (p *parser) ternary() (node, error) {
	c, err := p.or()
	if err != nil || !p.isOp("?") {
		return c, err
	}
	p.next()
	t, err := p.or()
	if err != nil {
		return nil, err
	}
	if err := p.expect(":"); err != nil {
		return nil, err
	}
	f, err := p.ternary()
	if err != nil {
		return nil, err
	}
	return cond{c, t, f}, nil
}

// binary parses a left-associative level of operators ops over sub.
func (p *parser) binary(sub func() (node, error), ops ...string) (node, error) {
	l, err := sub()
	for err == nil && p.isOp(ops...) {
		op := p.next().text
		var r node
		if r, err = sub(); err == nil {
			l = binop{op, l, r}
		}
	}
	return l, err
}

func (p *parser) or() (node, error)  { return p.binary(p.and, "||") }
func (p *parser) and() (node, error) { return p.binary(p.relation, "&&") }
func (p *parser) relation() (node, error) {
	return p.binary(p.additive, "==", "!=", "<", "<=", ">", ">=")
}
func (p *parser) additive() (node, error)       { return p.binary(p.multiplicative, "+", "-") }
func (p *parser) multiplicative() (node, error) { return p.binary(p.unary, "*", "/", "%") }

func (p *parser) unary() (node, error) {
	if p.isOp("!", "-") {
		op := p.next().text
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		return unop{op, n}, nil
	}
	return p.postfix()
}

func (p *parser) postfix() (node, error) {
	n, err := p.primary()
	for err == nil {
		switch {
		case p.isOp("."):
			p.next()
			m := p.next()
			if m.kind != tIdent {
				return nil, &SyntaxError{m.col, "want a member's name after ."}
			}
			n = member{n, m.text}
		case p.isOp("["):
			p.next()
			var i node
			if i, err = p.ternary(); err != nil {
				return nil, err
			}
			if err = p.expect("]"); err != nil {
				return nil, err
			}
			if r, ok := n.(root); !ok || r.name != "arguments" {
				p.uses[usesElements] = true
			}
			n = index{n, i}
		default:
			return n, nil
		}
	}
	return nil, err
}

func (p *parser) primary() (node, error) {
	t := p.next()
	switch t.kind {
	case tString:
		return literal{t.text}, nil
	case tNumber:
		if strings.Contains(t.text, ".") {
			v, err := strconv.ParseFloat(t.text, 64)
			if err != nil {
				return nil, &SyntaxError{t.col, fmt.Sprintf("bad number %q", t.text)}
			}
			return literal{v}, nil
		}
		// Upstream reads a whole number as a 32-bit int.
		v, err := strconv.ParseInt(t.text, 10, 32)
		if err != nil {
			return nil, &SyntaxError{t.col, fmt.Sprintf("the number %s is out of the range of a 32-bit int", t.text)}
		}
		return literal{v}, nil
	case tOp:
		if t.text == "(" {
			n, err := p.ternary()
			if err != nil {
				return nil, err
			}
			return n, p.expect(")")
		}
	case tIdent:
		return p.ident(t)
	case tEOF:
		return nil, &SyntaxError{t.col, "the expression ends too soon"}
	}
	return nil, &SyntaxError{t.col, fmt.Sprintf("unexpected %q", t.text)}
}

// ident parses a literal word, a root, or a function call.
func (p *parser) ident(t token) (node, error) {
	if p.isOp("(") {
		want, ok := functions[t.text]
		if !ok {
			return nil, &SyntaxError{t.col, fmt.Sprintf("unknown function %s(): want string, size, startsWith, endsWith or contains", t.text)}
		}
		p.next()
		var args []node
		for !p.isOp(")") {
			if len(args) > 0 {
				if err := p.expect(","); err != nil {
					return nil, err
				}
			}
			a, err := p.ternary()
			if err != nil {
				return nil, err
			}
			args = append(args, a)
		}
		p.next()
		if len(args) != want {
			return nil, &SyntaxError{t.col, fmt.Sprintf("%s() takes %d argument(s); found %d", t.text, want, len(args))}
		}
		return call{t.text, args}, nil
	}
	switch t.text {
	case "true", "false":
		return literal{t.text == "true"}, nil
	case "null":
		return literal{nil}, nil
	case "arguments", "instance", "return", "method", "type":
		p.uses[t.text] = true
		return root{t.text}, nil
	}
	return nil, &SyntaxError{t.col, fmt.Sprintf("unknown identifier %q: want arguments, instance, return, method or type", t.text)}
}
