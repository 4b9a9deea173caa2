package naming

import "strings"

// Match reports whether name matches pattern, where '*' matches any run of
// characters (dots included) and '?' any one character. Case-sensitive.
// Linear in practice: one backtrack point, as in the classic wildcard
// matcher, so no pattern is exponential.
func Match(pattern, name string) bool {
	p, n := 0, 0
	star, mark := -1, 0
	for n < len(name) {
		switch {
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == name[n]):
			p++
			n++
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, n
			p++
		case star >= 0:
			p = star + 1
			mark++
			n = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// Patterns is a list of globs; a name is matched by the list if any matches.
type Patterns []string

// ParsePatterns splits a comma-separated list, trimming blanks.
func ParsePatterns(csv string) Patterns {
	var out Patterns
	for _, p := range strings.Split(csv, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// MatchAny reports whether any pattern matches name.
func (ps Patterns) MatchAny(name string) bool {
	for _, p := range ps {
		if Match(p, name) {
			return true
		}
	}
	return false
}
