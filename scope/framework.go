package scope

import "strings"

//go:generate go test -run ^TestFrameworkHeader$ -update .

// The runtime's own assemblies, by name: these names, and the names that
// begin with these prefixes. This is the one list of them: the profiler's
// C layer reads it from profiler/framework.h, which go generate writes
// from it (TestFrameworkHeader fails when that header is stale).
var (
	frameworkNames        = []string{"mscorlib", "netstandard", "System"}
	frameworkNamePrefixes = []string{"System.", "Microsoft."}
)

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

// FrameworkAssembly reports whether an assembly is one of the runtime's
// own, by its name.
func FrameworkAssembly(name string) bool {
	for _, n := range frameworkNames {
		if name == n {
			return true
		}
	}
	for _, p := range frameworkNamePrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// FrameworkFile reports whether a module's file name (the last part of its
// path) is that of one of the runtime's own assemblies: such a name,
// followed by an extension, whatever the extension.
func FrameworkFile(file string) bool {
	for _, n := range frameworkNames {
		if strings.HasPrefix(file, n+".") {
			return true
		}
	}
	for _, p := range frameworkNamePrefixes {
		if strings.HasPrefix(file, p) {
			return true
		}
	}
	return false
}

// ReachesFramework reports whether a name starting with one of prefixes
// can be a method of the runtime's own assemblies. When it cannot, those
// assemblies need no closer look.
func ReachesFramework(prefixes []string, everywhere bool) bool {
	if everywhere {
		return true
	}
	for _, p := range prefixes {
		if reachesFramework(p) {
			return true
		}
	}
	return false
}

// reachesFramework reports whether prefix and a framework root agree on
// their common length.
func reachesFramework(prefix string) bool {
	for _, r := range frameworkRoots {
		n := min(len(prefix), len(r))
		if prefix[:n] == r[:n] {
			return true
		}
	}
	return false
}
