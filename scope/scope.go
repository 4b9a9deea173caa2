package scope

import (
	"strings"
	"unicode/utf16"
)

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

// Startup is the scope as the C layer reads it (profiler/startup.c
// clr_startup_scope): the prefixes as one UTF-16 list, each ended by a
// NUL (one empty prefix when a pattern matches anywhere, or when there is
// no pattern), and whether they reach the runtime's own assemblies.
type Startup struct {
	List             []uint16
	ReachesFramework bool
}

// ForStartup is the C layer's scope of the include patterns.
func ForStartup(include []string) Startup {
	prefixes, everywhere := Prefixes(include)
	var list []uint16
	if everywhere {
		list = []uint16{0}
	}
	for _, p := range prefixes {
		list = append(append(list, utf16.Encode([]rune(p))...), 0)
	}
	if len(list) == 0 {
		list = []uint16{0}
	}
	return Startup{List: list, ReachesFramework: ReachesFramework(prefixes, everywhere)}
}
