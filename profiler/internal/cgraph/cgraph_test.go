package cgraph

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A leaf-first layout: no loop in either graph.
var layered = map[string]string{
	"rt.h": "#ifndef RT_H\n#define RT_H\ntypedef struct rt { void *info; } rt;\nint rt_open(rt *r);\nextern int rt_opened;\n#endif\n",
	"rt.c": "#include \"rt.h\"\nint rt_opened;\nint rt_open(rt *r) { r->info = 0; rt_opened = 1; return 0; }\n",
	"comp.h": "#ifndef COMP_H\n#define COMP_H\n#include \"rt.h\"\nvoid comp_init(const rt *r);\nint comp_work(void);\n" +
		"static inline int comp_fast(void) { return rt_opened; }\n#endif\n",
	"comp.c": "#include \"comp.h\"\nstatic rt g_rt;\nvoid comp_init(const rt *r) { g_rt = *r; }\nint comp_work(void) { return g_rt.info != 0; }\n",
	"root.c": "#include \"comp.h\"\nstatic rt g;\nstatic void *tbl[] = {(void *)comp_work};\n" +
		"int root_start(void) { rt_open(&g); comp_init(&g); return comp_fast() + (tbl[0] != 0); }\n",
	"tramp.S": "        .globl tramp\ntramp:\n        call root_start\n        ret\n",
}

func TestLayeredHasNoLoop(t *testing.T) {
	dir := write(t, layered)
	report, err := Check(dir, CC())
	if err != nil {
		t.Fatal(err)
	}
	if report != "" {
		t.Fatalf("loops found in a layered tree:\n%s", report)
	}
	g, err := Calls(dir, CC())
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(g.Layers()); got != "[[comp.c rt.c] [root.c] [tramp.S]]" {
		t.Errorf("layers %s", got)
	}
	calls, err := Calls(dir, CC())
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]string]string{
		{"rt.c", ""}:          "",
		{"comp.c", "rt.c"}:    "",                    // only through the header's type: no symbol
		{"root.c", "rt.c"}:    "rt_open,rt_opened",   // rt_opened through comp.h's inline
		{"root.c", "comp.c"}:  "comp_init,comp_work", // comp_work through an initializer
		{"tramp.S", "root.c"}: "root_start",
	}
	for k, syms := range want {
		got := strings.Join(calls.Edges[k[0]][k[1]], ",")
		if k[1] != "" && got != syms {
			t.Errorf("%s -> %s: %q, want %q", k[0], k[1], got, syms)
		}
	}
}

// One back edge, from a component to the root, makes a loop of two files;
// one through the trampoline makes a loop of three.
func TestBackEdgeIsALoop(t *testing.T) {
	files := map[string]string{}
	for k, v := range layered {
		files[k] = v
	}
	files["comp.c"] += "int root_start(void);\nint comp_back(void) { return root_start(); }\n"
	report, err := Check(write(t, files), CC())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(report, "call graph: a loop through 3 files {comp.c root.c tramp.S}") &&
		!strings.Contains(report, "call graph: a loop through 2 files {comp.c root.c}") {
		t.Fatalf("back edge comp.c -> root.c not reported:\n%s", report)
	}
	if !strings.Contains(report, "-(root_start)->") {
		t.Fatalf("the loop does not name the symbol:\n%s", report)
	}
	t.Logf("\n%s", report)

	files["rt.c"] += "void tramp(void);\nvoid rt_back(void) { tramp(); }\n"
	report, err = Check(write(t, files), CC())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(report, "rt.c -> tramp.S: tramp") {
		t.Fatalf("back edge rt.c -> tramp.S not reported:\n%s", report)
	}
}

// A reference made only through a header's macro counts for the file
// that expands it; so does a variable's.
func TestMacroAndVariableEdges(t *testing.T) {
	files := map[string]string{}
	for k, v := range layered {
		files[k] = v
	}
	files["rt.h"] = strings.Replace(files["rt.h"], "#endif", "#define RT_WORK() comp_work()\n#endif", 1)
	files["rt.c"] += "int rt_use(void) { return RT_WORK(); }\n"
	files["comp.c"] += "int comp_open(rt *r) { return rt_open(r); }\n"
	report, err := Check(write(t, files), CC())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(report, "call graph: a loop through 2 files {comp.c rt.c}") || !strings.Contains(report, "rt.c -> comp.c: comp_work") {
		t.Fatalf("loop through a macro not reported:\n%s", report)
	}
	files = map[string]string{}
	for k, v := range layered {
		files[k] = v
	}
	files["comp.c"] += "int comp_flag = 1;\nint comp_open(rt *r) { return rt_open(r); }\n"
	files["rt.c"] += "extern int comp_flag;\nint rt_flag(void) { return comp_flag; }\n"
	report, err = Check(write(t, files), CC())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(report, "rt.c -> comp.c: comp_flag") {
		t.Fatalf("loop through a variable not reported:\n%s", report)
	}
}

func TestIncludeLoop(t *testing.T) {
	files := map[string]string{}
	for k, v := range layered {
		files[k] = v
	}
	files["rt.h"] = "#include \"comp.h\"\n" + files["rt.h"]
	report, err := Check(write(t, files), CC())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(report, "include graph: a loop through 2 files {comp.h rt.h}") {
		t.Fatalf("include loop not reported:\n%s", report)
	}
}

// The leaves every other C file may depend on and which depend on none:
// the runtime pointer, the guarded calls, the slot table, the safe copy.
var leaves = []string{"clrrt.c", "guard.c", "slots.c", "safecopy_amd64.S"}

// Accessors kept for Go's cgo code, which has no init to be handed the
// runtime or the slot table in; C components get them at their init.
var goOnly = []string{"clr_info", "clr_info_vtbl", "clr_info_version", "clr_slots", "clr_slot_count", "clr_ring_size", "clr_ring_soft", "clr_stack_cap"}

// The profiler's own C files: no loop in either graph, leaves that stay
// leaves, and no C file reaching for the runtime or the slot table
// through Go's accessors.
func TestProfilerHasNoLoop(t *testing.T) {
	inc, err := Includes("../..")
	if err != nil {
		t.Fatal(err)
	}
	if r := inc.Report("include graph"); r != "" {
		t.Errorf("the profiler's C files include each other in a loop:\n%s", r)
	}
	calls, err := Calls("../..", CC())
	if err != nil {
		t.Fatal(err)
	}
	if r := calls.Report("call graph"); r != "" {
		t.Errorf("the profiler's C files call each other in a loop:\n%s", r)
	}
	for i, l := range calls.Layers() {
		t.Logf("layer %d: %s", i, strings.Join(l, " "))
	}
	for _, leaf := range leaves {
		for to, syms := range calls.Edges[leaf] {
			t.Errorf("leaf %s depends on %s (%s)", leaf, to, strings.Join(syms, " "))
		}
	}
	for from, m := range calls.Edges {
		for _, syms := range m {
			for _, s := range syms {
				if slices.Contains(goOnly, s) {
					t.Errorf("%s calls %s, an accessor for Go: take what it needs at its init", from, s)
				}
			}
		}
	}
}
