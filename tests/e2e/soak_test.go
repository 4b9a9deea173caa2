package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

// vmRSS reads a process's resident set size in KB from /proc.
func vmRSS(pid int) (int, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			return strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
		}
	}
	return 0, fmt.Errorf("no VmRSS for %d", pid)
}

func medianInt(v []int) int {
	s := append([]int(nil), v...)
	sort.Ints(s)
	return s[len(s)/2]
}

// TestSoak (make soak, CLROTEL_SOAK=1): an app traced for 10 minutes at a
// steady call rate shows flat RSS and no growing table after warm-up, and
// accounts for every call. CLROTEL_SOAK_SECONDS shortens it for a try.
func TestSoak(t *testing.T) {
	if os.Getenv("CLROTEL_SOAK") == "" {
		t.Skip("the 10-minute soak runs with make soak (CLROTEL_SOAK=1)")
	}
	seconds := 600
	if v, err := strconv.Atoi(os.Getenv("CLROTEL_SOAK_SECONDS")); err == nil && v > 0 {
		seconds = v
	}
	rt := runtimes[0]
	sink, err := otlpsink.Listen("127.0.0.1:0", otlpsink.WithCountOnly())
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(seconds)*time.Second+2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, rt.Host, appPath(t, "Steady", rt), "steady", strconv.Itoa(seconds), "20000")
	cmd.Env = append(baseEnv(),
		"CORECLR_ENABLE_PROFILING=1", "CORECLR_PROFILER="+clsid, "CORECLR_PROFILER_PATH="+libPath,
		"OTEL_EXPORTER_OTLP_ENDPOINT="+sink.Endpoint(), "OTEL_SERVICE_NAME=e2e-soak",
		"CLROTEL_INCLUDE=Acme.Load.Work.*", "CLROTEL_LOG_LEVEL=info")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	type sample struct {
		at  time.Duration
		rss int
	}
	var samples []sample
	start := time.Now()
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	var waitErr error
loop:
	for {
		select {
		case waitErr = <-done:
			break loop
		case <-tick.C:
			if kb, err := vmRSS(cmd.Process.Pid); err == nil {
				samples = append(samples, sample{time.Since(start), kb})
			}
		}
	}
	if waitErr != nil {
		t.Fatalf("soak app: %v\n%s", waitErr, stderr.String())
	}
	// Warm-up is the first fifth; compare the first and last quarters of
	// what follows.
	var after []int
	for _, s := range samples {
		if s.at > time.Duration(seconds)*time.Second/5 {
			after = append(after, s.rss)
		}
	}
	if len(after) < 8 {
		t.Fatalf("only %d RSS samples after warm-up", len(after))
	}
	q := len(after) / 4
	early, late := medianInt(after[:q]), medianInt(after[len(after)-q:])
	t.Logf("RSS after warm-up: first quarter median %d KB, last quarter %d KB (%d samples)", early, late, len(after))
	if late > early*110/100+8<<10 {
		t.Errorf("RSS grew from %d KB to %d KB", early, late)
	}
	tabs := readTables(stderr.String())
	if len(tabs) < 3 {
		t.Fatalf("%d table reports\n%s", len(tabs), stderr.String())
	}
	warm := tabs[len(tabs)/5]
	for _, tb := range tabs[len(tabs)/5:] {
		if tb.functions != warm.functions || tb.classes != warm.classes || tb.slotsHigh != warm.slotsHigh || tb.heapMB > warm.heapMB+16 {
			t.Errorf("a table grew after warm-up: %+v then %+v", warm, tb)
			break
		}
	}
	t.Logf("tables: after warm-up %+v, at exit %+v", warm, tabs[len(tabs)-1])
	time.Sleep(300 * time.Millisecond)
	calls := steadyCalls(t, stdout.String())
	a := readAccount(t, stderr.String())
	if got := a.total(); got != calls || a.exported != sink.Count() {
		t.Errorf("%d calls; profiler %+v; received %d", calls, a, sink.Count())
	}
	// Each call is a trace of its own: 20,000 traces a second can cost the
	// exporter more than its CPU budget (CLROTEL_EXPORT_CPU_PERCENT), and
	// then whole traces are shed, counted; nothing is dropped or lost.
	if a.exported+a.shed != calls || a.dropped != 0 || a.failed != 0 || a.lost != 0 {
		t.Errorf("a steady 20,000 calls/s lost spans: %+v of %d", a, calls)
	}
	t.Logf("%d traces shed under the export CPU budget (%.1f%%)", a.shedTraces, 100*float64(a.shed)/float64(calls))
}
