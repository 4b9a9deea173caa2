package shaping

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tNumber
	tString
	tOp
)

type token struct {
	kind tokKind
	text string // the operator, identifier or number as written; a string's value
	col  int
}

// negAfter are the operators after which upstream's lexer reads -N as a
// negative number (elsewhere - is an operator).
var negAfter = map[string]bool{"(": true, "[": true, ",": true, "?": true, ":": true, "==": true, "!=": true,
	"<": true, "<=": true, ">": true, ">=": true, "&&": true, "||": true, "+": true, "-": true, "*": true, "/": true, "%": true}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// lex splits src into tokens as upstream's CelLexer does.
func lex(src string) ([]token, error) {
	var out []token
	colAt := func(i int) int { return utf8.RuneCountInString(src[:i]) + 1 }
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		col := colAt(i)
		c := src[i]
		switch {
		case unicode.IsSpace(r):
			i += size
		case c == '"' || c == '\'':
			var b strings.Builder
			j := i + 1
			for ; j < len(src) && src[j] != c; j++ {
				if src[j] != '\\' {
					b.WriteByte(src[j])
					continue
				}
				if j+1 >= len(src) {
					return nil, &SyntaxError{colAt(j), "a string ends with a lone \\"}
				}
				j++
				switch src[j] {
				case 'n':
					b.WriteByte('\n')
				case 'r':
					b.WriteByte('\r')
				case 't':
					b.WriteByte('\t')
				case '\\', '"', '\'':
					b.WriteByte(src[j])
				default:
					return nil, &SyntaxError{colAt(j - 1), fmt.Sprintf("the escape \\%c is not one of \\n \\r \\t \\\\ \\\" \\'", src[j])}
				}
			}
			if j >= len(src) {
				return nil, &SyntaxError{col, "unterminated string"}
			}
			out = append(out, token{tString, b.String(), col})
			i = j + 1
		case isDigit(c) || c == '-' && i+1 < len(src) && isDigit(src[i+1]) &&
			(len(out) == 0 || out[len(out)-1].kind == tOp && negAfter[out[len(out)-1].text]):
			j := i + 1
			for j < len(src) && (isDigit(src[j]) || src[j] == '.') {
				j++
			}
			out = append(out, token{tNumber, src[i:j], col})
			i = j
		case unicode.IsLetter(r) || c == '_':
			j := i
			for j < len(src) {
				r2, s2 := utf8.DecodeRuneInString(src[j:])
				if !unicode.IsLetter(r2) && !unicode.IsDigit(r2) && r2 != '_' {
					break
				}
				j += s2
			}
			out = append(out, token{tIdent, src[i:j], col})
			i = j
		default:
			two := ""
			if i+1 < len(src) {
				two = src[i : i+2]
			}
			switch {
			case two == "==" || two == "!=" || two == "<=" || two == ">=" || two == "&&" || two == "||":
				out = append(out, token{tOp, two, col})
				i += 2
			case strings.IndexByte(".()[],?:!<>-+*/%", c) >= 0:
				out = append(out, token{tOp, string(c), col})
				i++
			default:
				return nil, &SyntaxError{col, fmt.Sprintf("unexpected character %q", r)}
			}
		}
	}
	return append(out, token{tEOF, "", utf8.RuneCountInString(src) + 1}), nil
}
