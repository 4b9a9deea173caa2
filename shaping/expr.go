package shaping

import (
	"fmt"
	"strconv"
	"strings"
)

// Expr is a parsed expression of the no-code format's language, in the
// subset clrotel evaluates: paths (arguments[N], instance, return, method,
// type, each followed by .Member steps), string, number, bool and null
// literals, ==, !=, <, <=, >, >=, !, && and || with parentheses.
type Expr struct {
	src  string
	root node
	uses map[string]bool // the roots it reads: arguments, instance, return, method, type
}

// Uses reports whether the expression reads root (arguments, instance,
// return, method or type).
func (e *Expr) Uses(root string) bool { return e.uses[root] }

// String returns the expression's source.
func (e *Expr) String() string { return e.src }

// Eval evaluates the expression in env. Its result is nil (null or
// absent), a string, an int64, a float64 or a bool.
func (e *Expr) Eval(env Env) any { return e.root.eval(env) }

// Env gives an expression the values of one call.
type Env interface {
	// Value returns the value at root (arguments, instance or return),
	// index (the argument's, for arguments) and members, and false when
	// it was not captured.
	Value(root string, index int, members []string) (any, bool)
	// Method and Type are the method's name and its declaring type's.
	Method() string
	Type() string
}

// SyntaxError is an expression clrotel does not accept, with the column
// (1-based, in the expression) where the problem is.
type SyntaxError struct {
	Col int
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

// ParseExpr parses src, rejecting what clrotel does not evaluate.
func ParseExpr(src string) (*Expr, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, uses: map[string]bool{}}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, &SyntaxError{t.col, fmt.Sprintf("unexpected %q", t.text)}
	}
	return &Expr{src: src, root: n, uses: p.uses}, nil
}

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tFloat
	tString
	tOp // one of the operators and punctuation clrotel accepts
)

type token struct {
	kind tokKind
	text string // the operator, identifier or literal as written (a string's value, unquoted)
	col  int
}

// lex splits src into tokens, rejecting the operators and characters
// clrotel does not evaluate.
func lex(src string) ([]token, error) {
	var out []token
	for i := 0; i < len(src); {
		c := src[i]
		col := i + 1
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(src) && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			out = append(out, token{tIdent, src[i:j], col})
			i = j
		case c >= '0' && c <= '9':
			j, kind := i, tInt
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.') {
				if src[j] == '.' {
					kind = tFloat
				}
				j++
			}
			out = append(out, token{kind, src[i:j], col})
			i = j
		case c == '"' || c == '\'':
			var b strings.Builder
			j := i + 1
			for ; j < len(src) && src[j] != c; j++ {
				if src[j] == '\\' && j+1 < len(src) {
					j++
					switch src[j] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					default:
						b.WriteByte(src[j])
					}
					continue
				}
				b.WriteByte(src[j])
			}
			if j >= len(src) {
				return nil, &SyntaxError{col, "unterminated string"}
			}
			out = append(out, token{tString, b.String(), col})
			i = j + 1
		default:
			two := ""
			if i+1 < len(src) {
				two = src[i : i+2]
			}
			switch {
			case two == "==" || two == "!=" || two == "<=" || two == ">=" || two == "&&" || two == "||":
				out = append(out, token{tOp, two, col})
				i += 2
			case strings.IndexByte("<>!.[](),", c) >= 0:
				out = append(out, token{tOp, string(c), col})
				i++
			case c == '?' || c == ':':
				return nil, &SyntaxError{col, "the conditional operator (? :) is not supported by clrotel"}
			case strings.IndexByte("+-*/%", c) >= 0:
				return nil, &SyntaxError{col, fmt.Sprintf("the operator %q is not supported by clrotel (it evaluates paths, literals, comparisons, !, && and ||)", string(c))}
			default:
				return nil, &SyntaxError{col, fmt.Sprintf("unexpected character %q", string(c))}
			}
		}
	}
	return append(out, token{tEOF, "", len(src) + 1}), nil
}

type parser struct {
	toks []token
	pos  int
	uses map[string]bool
}

func (p *parser) peek() token { return p.toks[p.pos] }
func (p *parser) next() token { t := p.toks[p.pos]; p.pos++; return t }
func (p *parser) isOp(s string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == s
}

func (p *parser) or() (node, error) {
	l, err := p.and()
	for err == nil && p.isOp("||") {
		p.next()
		var r node
		if r, err = p.and(); err == nil {
			l = logic{or: true, l: l, r: r}
		}
	}
	return l, err
}

func (p *parser) and() (node, error) {
	l, err := p.cmp()
	for err == nil && p.isOp("&&") {
		p.next()
		var r node
		if r, err = p.cmp(); err == nil {
			l = logic{l: l, r: r}
		}
	}
	return l, err
}

func (p *parser) cmp() (node, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for _, op := range []string{"==", "!=", "<=", ">=", "<", ">"} {
		if p.isOp(op) {
			p.next()
			r, err := p.unary()
			if err != nil {
				return nil, err
			}
			return compare{op: op, l: l, r: r}, nil
		}
	}
	return l, nil
}

func (p *parser) unary() (node, error) {
	if p.isOp("!") {
		p.next()
		n, err := p.unary()
		return not{n}, err
	}
	return p.primary()
}

func (p *parser) primary() (node, error) {
	t := p.next()
	switch t.kind {
	case tString:
		return literal{t.text}, nil
	case tInt:
		v, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			return nil, &SyntaxError{t.col, fmt.Sprintf("bad number %q", t.text)}
		}
		return literal{v}, nil
	case tFloat:
		v, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return nil, &SyntaxError{t.col, fmt.Sprintf("bad number %q", t.text)}
		}
		return literal{v}, nil
	case tOp:
		if t.text == "(" {
			n, err := p.or()
			if err != nil {
				return nil, err
			}
			if !p.isOp(")") {
				return nil, &SyntaxError{p.peek().col, "want )"}
			}
			p.next()
			return n, nil
		}
	case tIdent:
		return p.path(t)
	case tEOF:
		return nil, &SyntaxError{t.col, "the expression ends too soon"}
	}
	return nil, &SyntaxError{t.col, fmt.Sprintf("unexpected %q", t.text)}
}

// path parses what follows an identifier: a literal word, a root and its
// member steps, or a function call (not supported).
func (p *parser) path(t token) (node, error) {
	if p.isOp("(") {
		return nil, &SyntaxError{t.col, fmt.Sprintf("the function %s() is not supported by clrotel", t.text)}
	}
	switch t.text {
	case "true", "false":
		return literal{t.text == "true"}, nil
	case "null":
		return literal{nil}, nil
	case "method", "type":
		p.uses[t.text] = true
		return nameOf{t.text}, nil
	case "arguments", "instance", "return":
	default:
		return nil, &SyntaxError{t.col, fmt.Sprintf("unknown identifier %q: want arguments[N], instance, return, method or type", t.text)}
	}
	p.uses[t.text] = true
	pt := path{root: t.text}
	if t.text == "arguments" {
		if !p.isOp("[") {
			return nil, &SyntaxError{p.peek().col, "want arguments[N]"}
		}
		p.next()
		n := p.next()
		if n.kind != tInt || !p.isOp("]") {
			return nil, &SyntaxError{n.col, "want an argument's index, arguments[N]"}
		}
		p.next()
		pt.index, _ = strconv.Atoi(n.text)
	}
	for {
		switch {
		case p.isOp("."):
			p.next()
			m := p.next()
			if m.kind != tIdent {
				return nil, &SyntaxError{m.col, "want a member's name after ."}
			}
			pt.members = append(pt.members, m.text)
		case p.isOp("["):
			return nil, &SyntaxError{p.peek().col, "indexing a value is not supported by clrotel"}
		default:
			return pt, nil
		}
	}
}
