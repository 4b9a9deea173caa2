package e2e

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var droppedTotalRE = regexp.MustCompile(`\((\d+) in all\)`)

// When capture buffers overflow, every call is still accounted for. A
// root call that finds its thread's buffer half full is shed with its
// trace (counted, logged, never a random drop); what cannot be recorded
// otherwise (here: frames past CLROTEL_MAX_DEPTH) is counted as dropped
// and logged, and root spans started after a drop carry the running
// count (otelbridge's tests; one recursion is one root here).
func TestDropsAreCountedLoggedAndOnSpans(t *testing.T) {
	const n = 300_000
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		// A 4 KB ring that may not grow holds a few dozen calls: most of a
		// tight loop of root calls must be shed, none dropped.
		r := rootsRun(t, rt, strconv.Itoa(n), map[string]string{"CLROTEL_RING_KB": "4", "CLROTEL_RING_BURST_KB": "0", "CLROTEL_LOG_LEVEL": "info"})
		a := readAccount(t, r.Stderr)
		if a.shed == 0 || len(r.Spans) == 0 || a.dropped != 0 || a.shed != a.shedTraces {
			t.Fatalf("received %d, %+v: want spans and shed roots, none dropped", len(r.Spans), a)
		}
		if got := len(r.Spans) + a.shed; got != n || a.exported != len(r.Spans) {
			t.Errorf("received %d + shed %d = %d, want every one of %d calls accounted for", len(r.Spans), a.shed, got, n)
		}
		if !strings.Contains(r.Stderr, fmt.Sprintf("%d traces (%d calls) not traced: shed under load", a.shedTraces, a.shed)) {
			t.Errorf("no shed report in the log:\n%s", r.Stderr)
		}
		// Recursion past the depth cap: the deeper calls are dropped.
		const depth, limit = 200, 16
		d := runApp(t, rt, "Basic", []string{"recurse", strconv.Itoa(depth)}, runOpts{profiler: true, env: map[string]string{
			"CLROTEL_INCLUDE": "Acme.Shop.Deep.Recurse", "CLROTEL_MAX_DEPTH": strconv.Itoa(limit), "CLROTEL_LOG_LEVEL": "info", "CLROTEL_FOLD": "off",
		}})
		m := droppedTotalRE.FindAllStringSubmatch(d.Stderr, -1)
		if d.ExitCode != 0 || len(m) == 0 {
			t.Fatalf("exit %d, no drop report in the log; %d spans received\n%s", d.ExitCode, len(d.Spans), d.Stderr)
		}
		dropped, _ := strconv.Atoi(m[len(m)-1][1])
		if dropped != depth+1-limit || len(d.Spans) != limit || readAccount(t, d.Stderr).dropped != dropped {
			t.Errorf("recursion of %d calls, depth cap %d: %d spans, %d dropped", depth+1, limit, len(d.Spans), dropped)
		}
		t.Logf("%d roots: %d spans received, %d shed; recursion: %d spans, %d dropped", n, len(r.Spans), a.shed, len(d.Spans), dropped)
	})
}
