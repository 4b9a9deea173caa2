package naming

import (
	"strings"
	"unicode/utf8"
)

// Match reports whether name matches the glob pattern, in which '*'
// matches any run of characters (dots included, possibly none) and '?'
// exactly one character; every other character matches itself,
// case-sensitively. Patterns are typically matched against
// Namespace.Type.Method names: "Acme.*", "*.Get*".
//
// Match backtracks only to the most recent '*', so it takes time
// proportional to len(pattern)*len(name) at worst, never exponential.
func Match(pattern, name string) bool {
	p, n := 0, 0
	star, mark := -1, 0 // last '*' in pattern, and where in name it was tried
	for n < len(name) {
		if p < len(pattern) {
			switch c := pattern[p]; {
			case c == '*':
				star, mark = p, n
				p++
				continue
			case c == '?':
				_, size := utf8.DecodeRuneInString(name[n:])
				p++
				n += size
				continue
			case c == name[n]:
				p++
				n++
				continue
			}
		}
		if star < 0 {
			return false
		}
		// Let the last '*' take one more character and try again after it.
		_, size := utf8.DecodeRuneInString(name[mark:])
		mark += size
		p, n = star+1, mark
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// Patterns is a list of globs; see Match.
type Patterns []string

// ParsePatterns splits a comma-separated list of globs, trimming blanks
// around each and dropping empty ones.
func ParsePatterns(csv string) Patterns {
	var ps Patterns
	for p := range strings.SplitSeq(csv, ",") {
		if p = strings.TrimSpace(p); p != "" {
			ps = append(ps, p)
		}
	}
	return ps
}

// MatchAny reports whether any of the patterns matches name. An empty list
// matches nothing.
func (ps Patterns) MatchAny(name string) bool {
	for _, p := range ps {
		if Match(p, name) {
			return true
		}
	}
	return false
}
