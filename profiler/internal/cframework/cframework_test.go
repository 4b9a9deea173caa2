package cframework

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/scope"
)

// pieces make names around every entry of the lists and past them.
var pieces = []string{
	"System", "System.", "Microsoft", "Microsoft.", "mscorlib", "netstandard", "Internal", "Interop", "FxResources",
	"<", "Module>", "Int32", "String", "TypedReference", "Private.CoreLib", "Linq", "dll", "exe", ".", "..", "",
	"Acme", "Shop", "Systematic", "Sys", "M", "x", "é", "Ⅻ", "*", "\x00",
}

func randomName(r *rand.Rand) string {
	var b strings.Builder
	for n := r.IntN(4); n >= 0; n-- {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

var table = []string{
	"", "mscorlib", "netstandard", "System", "System.", "System.Private.CoreLib", "System.Linq", "Microsoft.CSharp",
	"Microsoft", "Microsoft.", "Systematic", "mscorlib.Extra", "mscorlib.dll", "netstandard.dll", "System.dll",
	"System.Private.CoreLib.dll", "Microsoft.dll", "Shop", "Shop.dll", "system.dll", "Sys", "<Module>", "Int32.Parse",
	"Int3", "Acme.Shop.", "TypedReference.", "Decimal.Parse",
}

// TestAssembly: the C rule and scope.FrameworkAssembly agree on names,
// with and without the NULs the runtime may leave after one.
func TestAssembly(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 7))
	names := append([]string(nil), table...)
	for i := 0; i < 50000; i++ {
		names = append(names, randomName(r))
	}
	for _, name := range names {
		if strings.ContainsRune(name, 0) {
			continue // a NUL ends the name for C
		}
		want := scope.FrameworkAssembly(name)
		for nuls := 0; nuls < 3; nuls++ {
			if got := Assembly(name, nuls); got != want {
				t.Fatalf("%q with %d NULs: C %v, scope %v", name, nuls, got, want)
			}
		}
	}
}

// TestFile: the C rule and scope.FrameworkFile agree on file names.
func TestFile(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 8))
	names := append([]string(nil), table...)
	for i := 0; i < 50000; i++ {
		names = append(names, randomName(r))
	}
	for _, name := range names {
		if strings.ContainsRune(name, 0) {
			continue
		}
		if got, want := File(name), scope.FrameworkFile(name); got != want {
			t.Fatalf("%q: C %v, scope %v", name, got, want)
		}
	}
}

// TestReached: the C rule and scope.ReachesFramework agree on each
// selection prefix.
func TestReached(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 9))
	prefixes := append([]string(nil), table...)
	for i := 0; i < 50000; i++ {
		prefixes = append(prefixes, randomName(r))
	}
	for _, p := range prefixes {
		if p == "" || strings.ContainsRune(p, 0) {
			continue // no prefix is empty: an empty one is everywhere
		}
		if got, want := Reached(p), scope.ReachesFramework([]string{p}, false); got != want {
			t.Fatalf("%q: C %v, scope %v", p, got, want)
		}
	}
}
