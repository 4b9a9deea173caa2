package e2e

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/otlpsink"
)

var shedRequestsRE = regexp.MustCompile(`(?m)^requests (\d+)$`)

// shedTraces groups spans by trace and gives each trace's calls: its spans
// plus the calls folded into them. It fails the test on a trace whose root
// is not one Work.Request span.
func shedTraces(t *testing.T, spans []otlpsink.Span) map[string]int {
	t.Helper()
	calls, roots := map[string]int{}, map[string]int{}
	for _, s := range spans {
		calls[s.TraceID]++
		if v, ok := s.Attrs["clrotel.folded.count"].(int64); ok {
			calls[s.TraceID] += int(v)
		}
		if s.ParentSpanID == "" {
			roots[s.TraceID]++
			if !strings.Contains(s.Name, "Work.Request(") {
				t.Errorf("a trace rooted at %s", s.Name)
			}
		}
	}
	for id := range calls {
		if roots[id] != 1 {
			t.Errorf("trace %s has %d roots", id, roots[id])
		}
	}
	return calls
}

// TestLoadShedding: under more load than the span work may take, whole
// traces are shed at their root and nothing else is lost. The app makes
// requests as fast as it can, each a trace with a value-heavy argument, a
// lambda on the thread pool and an async method resuming elsewhere. A
// reference run with room for everything and shedding off gives the calls
// of one request. Then, with a capture buffer that fills (it sheds when
// half full) and with a CPU budget of 1% of a core: the app is unchanged,
// some traces are shed, none is dropped, every trace received has every
// call of a request (spans plus folded calls), every shed trace counted
// every one of its calls as shed, and kept plus shed traces are the
// requests made. Re-JIT off: its uncounted calls would blur the sums.
func TestLoadShedding(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		base := map[string]string{
			"CLROTEL_INCLUDE": "Acme.Shed.Work.*,Acme.Shed.Repo.Lookup", "CLROTEL_LOG_LEVEL": "info", "CLROTEL_FOLD_REJIT": "off",
		}
		with := func(kv ...string) map[string]string {
			m := map[string]string{}
			for k, v := range base {
				m[k] = v
			}
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i]] = kv[i+1]
			}
			return m
		}
		requests := func(t *testing.T, r run) int {
			t.Helper()
			if r.ExitCode != 0 || !strings.Contains(r.Stdout, "sum 0\n") {
				t.Fatalf("traced run: exit %d, output %q\n%s", r.ExitCode, r.Stdout, tail(r.Stderr, 3000))
			}
			m := shedRequestsRE.FindStringSubmatch(r.Stdout)
			if m == nil {
				t.Fatalf("no request count in %q", r.Stdout)
			}
			n, _ := strconv.Atoi(m[1])
			return n
		}
		// The reference: every request a trace, each of the same calls.
		ref := runApp(t, rt, "Shed", []string{"2", "0.3"}, runOpts{profiler: true, env: with("CLROTEL_EXPORT_CPU_PERCENT", "0", "CLROTEL_RING_KB", "16384")})
		n := requests(t, ref)
		a := readAccount(t, ref.Stderr)
		per := 0
		traces := shedTraces(t, ref.Spans)
		for _, c := range traces {
			if per == 0 {
				per = c
			}
			if c != per {
				t.Fatalf("reference: traces of %d and %d calls", per, c)
			}
		}
		// No budget and large buffers; on a loaded machine the drainer can
		// still fall behind and the backlog rule shed a few: whole, and
		// counted.
		if a.dropped != 0 || len(traces)+a.shedTraces != n || a.total() != n*per {
			t.Fatalf("reference: %d requests, %d traces of %d calls; profiler: %+v", n, len(traces), per, a)
		}
		t.Logf("reference: %d requests of %d calls each", n, per)
		for _, tc := range []struct {
			name string
			args []string
			env  map[string]string
		}{
			{"buffer half full", []string{"4", "1"}, with("CLROTEL_EXPORT_CPU_PERCENT", "0", "CLROTEL_RING_KB", "64")},
			{"CPU budget", []string{"2", "2.5"}, with("CLROTEL_EXPORT_CPU_PERCENT", "1")},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := runApp(t, rt, "Shed", tc.args, runOpts{profiler: true, env: tc.env})
				n := requests(t, r)
				a := readAccount(t, r.Stderr)
				traces := shedTraces(t, r.Spans)
				partial := 0
				for _, c := range traces {
					if c != per {
						partial++
					}
				}
				t.Logf("%d requests: %d traces kept, %d shed; profiler: %+v", n, len(traces), a.shedTraces, a)
				if partial > 0 {
					t.Errorf("%d of %d traces received lack calls (want %d each)", partial, len(traces), per)
				}
				if a.shedTraces == 0 {
					t.Errorf("nothing was shed")
				}
				if a.dropped != 0 || a.failed != 0 || a.lost != 0 {
					t.Errorf("calls lost: %+v", a)
				}
				if a.shed != a.shedTraces*per {
					t.Errorf("%d traces shed counted %d calls, want %d each", a.shedTraces, a.shed, per)
				}
				if len(traces)+a.shedTraces != n || a.total() != n*per {
					t.Errorf("%d traces kept and %d shed, %d calls in all; want %d requests, %d calls", len(traces), a.shedTraces, a.total(), n, n*per)
				}
				if !strings.Contains(r.Stderr, fmt.Sprintf("%d traces (%d calls) not traced: shed under load", a.shedTraces, a.shed)) {
					t.Errorf("the exit log does not say what was shed:\n%s", tail(r.Stderr, 3000))
				}
			})
		}
	})
}
