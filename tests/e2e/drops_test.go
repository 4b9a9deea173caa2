package e2e

import (
	"regexp"
	"strconv"
	"testing"
)

var droppedTotalRE = regexp.MustCompile(`\((\d+) in all\)`)

// When capture buffers overflow, every call is still accounted for: it is
// either exported as a span or counted as dropped, the drops are logged, and
// root spans started after a drop carry the running count.
func TestDropsAreCountedLoggedAndOnSpans(t *testing.T) {
	const n = 300_000
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		// A 4 KB ring holds a few dozen calls: most of a tight loop of
		// root calls must be dropped.
		r := rootsRun(t, rt, strconv.Itoa(n), map[string]string{"CLROTEL_RING_KB": "4"})
		m := droppedTotalRE.FindAllStringSubmatch(r.Stderr, -1)
		if len(m) == 0 {
			t.Fatalf("no drop report in the log; %d spans received\n%s", len(r.Spans), r.Stderr)
		}
		dropped, _ := strconv.Atoi(m[len(m)-1][1])
		if dropped == 0 || len(r.Spans) == 0 {
			t.Fatalf("dropped %d, received %d: want both > 0", dropped, len(r.Spans))
		}
		if got := len(r.Spans) + dropped; got != n {
			t.Errorf("received %d + dropped %d = %d, want every one of %d calls accounted for", len(r.Spans), dropped, got, n)
		}
		marked := 0
		for _, s := range r.Spans {
			if v, ok := s.Attrs["clrotel.dropped_calls"].(int64); ok {
				if v <= 0 || v > int64(dropped) {
					t.Fatalf("clrotel.dropped_calls = %d, total dropped %d", v, dropped)
				}
				marked++
			}
		}
		if marked == 0 {
			t.Errorf("no root span carries clrotel.dropped_calls")
		}
		// A call recorded when the ring had room for it but not for its
		// values says so; every other span has its argument.
		valuesDropped := 0
		for _, s := range r.Spans {
			_, hasArg := s.Attrs["dotnet.arg.x"]
			switch {
			case s.Attrs["dotnet.values.dropped"] == true:
				valuesDropped++
			case !hasArg:
				t.Fatalf("span without its argument and not marked: %v", s.Attrs)
			}
		}
		t.Logf("%d spans marked dotnet.values.dropped", valuesDropped)
		t.Logf("%d calls: %d spans received, %d dropped, %d spans marked", n, len(r.Spans), dropped, marked)
	})
}
