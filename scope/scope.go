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

// frameworkRoots are the first segments of every type name in the
// runtime's own assemblies (System.Private.CoreLib, System.*, Microsoft.*),
// as naming writes them: their namespaces, the global Interop class, the
// compiler's <Module> and <PrivateImplementationDetails>, and the short
// names naming gives System's primitives.
var frameworkRoots = []string{
	"System.", "Microsoft.", "Internal.", "Interop.", "FxResources.", "<",
	"Void.", "Boolean.", "Char.", "SByte.", "Byte.", "Int16.", "UInt16.", "Int32.", "UInt32.",
	"Int64.", "UInt64.", "Single.", "Double.", "String.", "IntPtr.", "UIntPtr.", "Object.", "TypedReference.",
}

// ReachesFramework reports whether a name starting with one of prefixes
// can be a method of the runtime's own assemblies. When it cannot, those
// assemblies need no closer look.
func ReachesFramework(prefixes []string, everywhere bool) bool {
	if everywhere {
		return true
	}
	for _, p := range prefixes {
		for _, r := range frameworkRoots {
			n := min(len(p), len(r))
			if p[:n] == r[:n] {
				return true
			}
		}
	}
	return false
}
