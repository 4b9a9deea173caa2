package scope

import "strings"

// Prefixes returns the literal prefix of each include pattern (its text up
// to the first '*' or '?'), without duplicates and without prefixes another
// one already covers. everywhere is true when some pattern starts with a
// wildcard, so that no prefix bounds where it matches.
func Prefixes(include []string) (prefixes []string, everywhere bool) {
	for _, p := range include {
		lit := p
		if i := strings.IndexAny(p, "*?"); i >= 0 {
			lit = p[:i]
		}
		if lit == "" {
			return nil, true
		}
		prefixes = append(prefixes, lit)
	}
	// A prefix that starts with another prefix adds nothing.
	var out []string
	for i, p := range prefixes {
		covered := false
		for j, q := range prefixes {
			if i != j && strings.HasPrefix(p, q) && (len(q) < len(p) || j < i) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, p)
		}
	}
	return out, false
}
