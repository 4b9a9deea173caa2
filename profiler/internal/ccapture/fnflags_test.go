package ccapture

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/selection"
)

// goFnFlags gives, for each function flag of capture.h, what package
// selection calls it and its value there.
var goFnFlags = map[string]struct {
	name  string
	value selection.Flags
}{
	"FN_SELECTED":        {"FnSelected", selection.FnSelected},
	"FN_SHARED_GENERIC":  {"FnSharedGeneric", selection.FnSharedGeneric},
	"FN_FOLDED":          {"FnFolded", selection.FnFolded},
	"FN_FOLD_EXEMPT":     {"FnFoldExempt", selection.FnFoldExempt},
	"FN_ASYNC_KICKOFF":   {"FnAsyncKickoff", selection.FnAsyncKickoff},
	"FN_ASYNC_MOVENEXT":  {"FnAsyncMoveNext", selection.FnAsyncMoveNext},
	"FN_ASYNC_COMPLETE":  {"FnAsyncComplete", selection.FnAsyncComplete},
	"FN_ASYNC":           {"FnAsync", selection.FnAsync},
	"FN_CLOSURE_CTOR":    {"FnClosureCtor", selection.FnClosureCtor},
	"FN_CLOSURE_BODY":    {"FnClosureBody", selection.FnClosureBody},
	"FN_LINKED":          {"FnLinked", selection.FnLinked},
	"FN_REJIT":           {"FnReJIT", selection.FnReJIT},
	"FN_UNHOOKED":        {"FnUnhooked", selection.FnUnhooked},
	"FN_ITER_FOLDED":     {"FnIterFolded", selection.FnIterFolded},
	"FN_ITER_START":      {"FnIterStart", selection.FnIterStart},
	"FN_ACTIVITY_STOP":   {"FnActivityStop", selection.FnActivityStop},
	"FN_QUEUE":           {"FnQueue", selection.FnQueue},
	"FN_QUEUE_UNSAFE":    {"FnQueueUnsafe", selection.FnQueueUnsafe},
	"FN_QUEUE_REGISTERS": {"FnQueueRegisters", selection.FnQueueRegisters},
	"FN_ITER_END":        {"FnIterEnd", selection.FnIterEnd},
	"FN_WORK_MAKE":       {"FnWorkMake", selection.FnWorkMake},
	"FN_WORK_RUN":        {"FnWorkRun", selection.FnWorkRun},
	"FN_WORK_REPEAT":     {"FnWorkRepeat", selection.FnWorkRepeat},
	"FN_COMPILE":         {"FnCompile", selection.FnCompile},
	"FN_PENDING":         {"FnPending", selection.FnPending},
	"FN_ENTRY":           {"FnEntry", selection.FnEntry},
	"FN_WORK_THREAD":     {"FnWorkThread", selection.FnWorkThread},
	"FN_ASYNC_LOOP":      {"FnAsyncLoop", selection.FnAsyncLoop},
	"FN_PLUMBING":        {"FnPlumbing", selection.FnPlumbing},
	"FN_ITER_STEP":       {"FnIterStep", selection.FnIterStep},
	"FN_WORK_PROMISE":    {"FnWorkPromise", selection.FnWorkPromise},
	"FN_NOT_A_CALL":      {"FnNotACall", selection.FnNotACall},
	"FN_NEVER_FOLDED":    {"FnNeverFolded", selection.FnNeverFolded},
}

// TestFunctionFlags: each function flag is the same in capture.h and
// package selection, and each side's flags are all listed here, so that
// a flag added or changed on one side only fails.
func TestFunctionFlags(t *testing.T) {
	listed := map[string]bool{}
	for _, c := range FnFlags {
		listed[c.Name] = true
		g, ok := goFnFlags[c.Name]
		if !ok {
			t.Errorf("%s = %#x in capture.h: no counterpart in package selection listed here", c.Name, c.Value)
			continue
		}
		if c.Value != uint64(g.value) {
			t.Errorf("%s = %#x in capture.h, selection.%s = %#x", c.Name, c.Value, g.name, g.value)
		}
	}
	src, err := os.ReadFile("capture.h")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(?m)(?:\b(FN_[A-Z_]+)\s*=|^#define\s+(FN_[A-Z_]+)\b)`).FindAllStringSubmatch(string(src), -1) {
		if name := m[1] + m[2]; !listed[name] {
			t.Errorf("capture.h defines %s: list it in ccapture.go and give its selection counterpart", name)
		}
	}

	goListed := map[string]bool{}
	for _, g := range goFnFlags {
		goListed[g.name] = true
	}
	f, err := parser.ParseFile(token.NewFileSet(), "../../../selection/hookflags.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.CONST {
			for _, s := range gd.Specs {
				for _, id := range s.(*ast.ValueSpec).Names {
					if strings.HasPrefix(id.Name, "Fn") {
						n++
						if !goListed[id.Name] {
							t.Errorf("package selection declares %s: give its capture.h counterpart here", id.Name)
						}
					}
				}
			}
		}
	}
	if n != len(goFnFlags) {
		t.Errorf("package selection declares %d flags, %d listed", n, len(goFnFlags))
	}
}
