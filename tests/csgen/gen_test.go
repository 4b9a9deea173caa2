package csgen

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestDeterministic(t *testing.T) {
	for _, seed := range []int64{1, 2, 77, -5, 1 << 40} {
		a, b := Generate(seed, Options{}), Generate(seed, Options{})
		if a.Source != b.Source || strings.Join(a.Features, " ") != strings.Join(b.Features, " ") || a.ExactCalls != b.ExactCalls {
			t.Fatalf("seed %d: two programs differ", seed)
		}
	}
	if Generate(1, Options{}).Source == Generate(2, Options{}).Source {
		t.Fatal("seeds 1 and 2 give the same program")
	}
}

// Every feature the issue lists shows up within a few dozen seeds.
func TestEveryFeatureAppears(t *testing.T) {
	want := []string{
		// type shapes
		"class", "struct", "enum", "enum:flags", "enum:non-int32", "enum:long-name", "const:string", "const:char",
		"const:decimal", "static-readonly", "thread-static", "unicode-name",
		// generics
		"generic-class", "generic-method", "generic-constraint", "generic-nested", "generic-virtual", "generic-base",
		"generic-struct-over-ref",
		// inheritance
		"hierarchy", "interface", "virtual-override", "new-member", "override-tostring",
		// parameter forms
		"param:params", "param:ref", "param:out", "param:in", "param:optional", "named-arg", "nullable", "nullable-struct", "boxing",
		// code forms
		"delegate", "lambda", "closure", "event", "linq", "iterator", "iterator-again", "iterator-linq", "iterator-elsewhere", "async", "async-real", "async-generic", "exceptions", "exception-filter",
		"finally", "recursion", "threads", "tasks", "parallel", "arith", "many-args", "record",
		// ordinary members
		"property", "indexer", "operator", "static-ctor", "extension", "using", "unsafe-pointer", "ref-return", "pattern", "checked",
		// BCL values
		"bcl:Guid", "bcl:DateTime", "bcl:DateTimeOffset", "bcl:TimeSpan", "bcl:Uri", "bcl:Version", "bcl:StringBuilder",
		"bcl:List", "bcl:Dictionary", "bcl:HashSet", "bcl:Queue", "bcl:Stack", "bcl:jagged-array", "bcl:multidim-array",
		"bcl:array", "bcl:Tuple", "bcl:ValueTuple", "bcl:KeyValuePair", "bcl:Lazy", "bcl:Task", "bcl:CancellationToken",
		"bcl:Regex", "bcl:Encoding", "bcl:object", "bcl:array-lower-bound", "bcl:IntPtr", "bcl:Exception", "bcl:Type",
		"reflection", "gc", "exit:environment-exit", "value-oracle", "main-loop",
	}
	seen := map[string]int{}
	for s := int64(1); s <= 40; s++ {
		for _, f := range Generate(s, Options{}).Features {
			seen[f]++
		}
	}
	for _, f := range want {
		if seen[f] == 0 {
			t.Errorf("feature %q never appears in 40 seeds", f)
		}
	}
}

// Options.Only draws the units of those kinds only: a program of the
// iterator units has their features, and none of another unit's.
func TestOnly(t *testing.T) {
	for s := int64(1); s <= 5; s++ {
		p := Generate(s, Options{Only: []string{"iterators"}})
		f := strings.Join(p.Features, " ")
		units := strings.Count(p.Source, "public static class U")
		iters := strings.Count(p.Source, "public static class UIterators")
		if !strings.Contains(f, "iterator-again") || strings.Contains(f, "async") || iters < 8 || units != iters+1 {
			t.Errorf("seed %d, iterators only: %d units, %d of them iterators (and the core); features %s", s, units, iters, f)
		}
	}
}

// The text is well formed as far as Go can tell: no formatting verb left
// unexpanded, braces balanced, one Main.
func TestWellFormed(t *testing.T) {
	for s := int64(1); s <= 100; s++ {
		src := Generate(s, Options{}).Source
		if strings.Contains(src, "%!") {
			i := strings.Index(src, "%!")
			t.Fatalf("seed %d: bad formatting verb near %q", s, src[max(0, i-80):i+20])
		}
		if n := strings.Count(src, "static int Main("); n != 1 {
			t.Fatalf("seed %d: %d Main methods", s, n)
		}
	}
}

// No string is assigned an expression built from itself without a bound:
// in nested loops such a string grows past any memory, and the program
// fails untraced (seed 790001: Out of memory).
func TestStringsBounded(t *testing.T) {
	decl := regexp.MustCompile(`\bstring ([lp]\w+)\b`)
	assign := regexp.MustCompile(`^\s*([lp]\w+) = (.*);$`)
	for _, seed := range []int64{790001, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20} {
		src := Generate(seed, Options{}).Source
		strs := map[string]bool{}
		for _, m := range decl.FindAllStringSubmatch(src, -1) {
			strs[m[1]] = true
		}
		for _, line := range strings.Split(src, "\n") {
			m := assign.FindStringSubmatch(line)
			if m == nil || !strs[m[1]] || !regexp.MustCompile(`\b`+m[1]+`\b`).MatchString(m[2]) {
				continue
			}
			if !strings.HasPrefix(m[2], "Chk.Cap(") {
				t.Fatalf("seed %d: a string built from itself, unbounded: %s", seed, strings.TrimSpace(line))
			}
		}
	}
}

// A sample of programs compiles with mcs as the harness compiles them.
func TestCompilesWithMcs(t *testing.T) {
	if _, err := exec.LookPath("mcs"); err != nil {
		t.Skip("mcs not installed (make deps)")
	}
	if testing.Short() {
		t.Skip("compiles programs")
	}
	dir := t.TempDir()
	for _, o := range []struct {
		s int64
		o Options
	}{{3, Options{}}, {1001, Options{}}, {424242, Options{}}, {7, Options{Only: []string{"iterators", "linq"}}}} {
		s, p := o.s, Generate(o.s, o.o)
		cs := filepath.Join(dir, "Gen.cs")
		if err := os.WriteFile(cs, []byte(p.Source), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("mcs", "-nologo", "-langversion:7.2", "-optimize+", "-unsafe", "-out:"+filepath.Join(dir, "Gen.exe"), cs).CombinedOutput()
		if err != nil {
			t.Fatalf("seed %d does not compile: %v\n%s", s, err, out)
		}
	}
}
