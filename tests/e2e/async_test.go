package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Async methods, iterators and lambdas, traced with their values: the
// state machines and the task types they reach (Task<T>, its scheduler,
// the builders) are planned without loading any type from the planner's
// thread. The app runs as without the profiler, and secrets handed to an
// async method stay redacted in the state machine's copy of them.
func TestAsyncMethods(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Async", []string{"30"}, runOpts{})
		for i := 0; i < 3; i++ {
			r := runApp(t, rt, "Async", []string{"30"}, runOpts{profiler: true})
			if r.ExitCode != 0 || r.Stdout != plain.Stdout || plain.ExitCode != 0 {
				t.Fatalf("run %d: exit %d/%d, stdout %q, want %q\n%s", i, r.ExitCode, plain.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
			}
			fetch := byName(r.Spans, "Async.exe!Acme.Async.Work.Fetch(Int32 id, String apiKey)")
			if len(fetch) != 2*30+8 {
				t.Fatalf("run %d: %d Fetch spans, want %d", i, len(fetch), 2*30+8)
			}
			// Each async method is one span until its task completes
			// (asyncspans_test.go): no state-machine step is a span, and
			// the return value is the task's result.
			var moveNext, chainRet, fetchRet int
			var badFetch []string
			for _, s := range r.Spans {
				if strings.Contains(s.Name, ".MoveNext(") && (strings.Contains(s.Name, "<Fetch>") || strings.Contains(s.Name, "<Chain>") || strings.Contains(s.Name, "<Fail>")) {
					moveNext++
				}
				if strings.HasSuffix(s.Name, "Work.Chain(Acme.Async.Order order)") {
					if v, _ := s.Attrs["dotnet.return"].(string); strings.HasPrefix(strings.Trim(v, `"`), "c") && strings.Contains(v, ":") {
						chainRet++
					}
				}
				if strings.Contains(s.Name, "Work.Fetch(") {
					if s.Attrs["dotnet.return"] == 2*s.Attrs["dotnet.arg.id"].(int64) && s.Duration() >= time.Millisecond {
						fetchRet++
					} else {
						badFetch = append(badFetch, fmt.Sprintf("%s %v %v", s.SpanID, s.Duration(), s.Attrs))
					}
				}
				for k, v := range s.Attrs {
					if str, ok := v.(string); ok && strings.Contains(str, "sk-live") {
						t.Errorf("secret exported in %s %s=%q", s.Name, k, str)
					}
				}
			}
			if moveNext != 0 || chainRet != 30 || fetchRet != len(fetch) {
				t.Errorf("run %d: %d state-machine steps as spans, %d of 30 Chain results, %d of %d Fetch results; the others: %s\n%s",
					i, moveNext, chainRet, fetchRet, len(fetch), strings.Join(badFetch, "; "), dumpSpans(r.Spans[:min(len(r.Spans), 40)]))
			}
		}
	})
}
