package e2e

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

// A stack overflow in traced user code ends the process the way it does
// without the profiler: same exit status, same runtime message, no hang.
func TestStackOverflowAsWithoutProfiler(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Steady", []string{"overflow"}, runOpts{})
		traced := runApp(t, rt, "Steady", []string{"overflow"}, runOpts{profiler: true, env: map[string]string{
			"CLROTEL_INCLUDE": "Acme.Load.Work.*",
		}})
		t.Logf("untraced: exit %d, stderr %.200q", plain.ExitCode, plain.Stderr)
		t.Logf("traced:   exit %d, stderr %.200q", traced.ExitCode, traced.Stderr)
		if plain.ExitCode == 0 || !strings.Contains(plain.Stderr, "Stack overflow") {
			t.Fatalf("the untraced run did not overflow: exit %d\n%s", plain.ExitCode, plain.Stderr)
		}
		if traced.ExitCode != plain.ExitCode || !strings.Contains(traced.Stderr, "Stack overflow") || traced.Stdout != plain.Stdout {
			t.Errorf("traced run: exit %d, stdout %q; untraced: exit %d, stdout %q\n%s", traced.ExitCode, traced.Stdout, plain.ExitCode, plain.Stdout, traced.Stderr)
		}
	})
}

// statsRE reads the profiler's table sizes (info level, every 10 s and at
// exit).
var statsRE = regexp.MustCompile(`tables: (\d+) slots in use \(high water (\d+)\), (\d+) thread states, (\d+) functions, (\d+) classes, Go heap (\d+) MB`)

type tables struct{ slotsLive, slotsHigh, threads, functions, classes, heapMB int }

func readTables(stderr string) []tables {
	var out []tables
	for _, m := range statsRE.FindAllStringSubmatch(stderr, -1) {
		n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
		out = append(out, tables{n(1), n(2), n(3), n(4), n(5), n(6)})
	}
	return out
}

// 64 threads created and ending continuously for 60 s, each making traced
// calls: per-thread state is released as threads end (the slot table's
// high water stays near the threads alive at once, not the thousands
// created), every call is accounted for, and the app runs as without the
// profiler. One runtime: the slot logic is the profiler's own.
func TestThreadChurn(t *testing.T) {
	rt := runtimes[0]
	const threads = 64
	// Few calls per thread: the test is about thread turnover, at a span
	// rate the exporter keeps up with (a drainer held up by export releases
	// dead threads late; the table then fills to CLROTEL_MAX_THREADS at
	// most, and further threads count their calls as dropped).
	args := []string{"churn", "60", strconv.Itoa(threads), "20"}
	sink, err := otlpsink.Listen("127.0.0.1:0", otlpsink.WithCountOnly())
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	r := runApp(t, rt, "Steady", args, runOpts{profilerNoSink: true, timeout: 3 * time.Minute, env: map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT": sink.Endpoint(),
		"CLROTEL_INCLUDE":             "Acme.Load.Work.*",
		// Room for a leak to show: a slot kept per dead thread would fill
		// 4,096 slots within seconds.
		"CLROTEL_MAX_THREADS": "4096",
		"CLROTEL_LOG_LEVEL":   "info",
		// Every call counted: folded calls keep their hooks.
		"CLROTEL_FOLD_REJIT": "off",
	}})
	if r.ExitCode != 0 {
		t.Fatalf("exit %d\n%s", r.ExitCode, r.Stderr)
	}
	var started int
	if _, err := fmt.Sscanf(r.Stdout[strings.Index(r.Stdout, "threads "):], "threads %d", &started); err != nil {
		t.Fatalf("stdout %q: %v", r.Stdout, err)
	}
	calls := steadyCalls(t, r.Stdout)
	tabs := readTables(r.Stderr)
	if len(tabs) < 5 {
		t.Fatalf("%d table reports in a 60 s run, want one every 10 s and one at exit\n%s", len(tabs), r.Stderr)
	}
	last := tabs[len(tabs)-1]
	t.Logf("%d threads started, %d calls; tables over time: %v", started, calls, tabs)
	if started < 10*threads {
		t.Fatalf("only %d threads started: the churn did not happen", started)
	}
	// Slots are taken by threads that make traced calls and given back
	// once a dead thread's records are drained: the high water follows
	// the threads alive at once, plus the dead ones not yet drained (a
	// few, or a few hundred when the machine is loaded and the drainer
	// lags: 329 at load 11), far from the thousands created.
	if last.slotsHigh > 16*threads {
		t.Errorf("slot high water %d after %d threads: per-thread state is not released", last.slotsHigh, started)
	}
	if last.slotsLive > 2 || last.threads > 2 {
		t.Errorf("at exit %d slots in use and %d thread states: dead threads' state kept", last.slotsLive, last.threads)
	}
	for _, tb := range tabs[1:] {
		if tb.functions != tabs[0].functions || tb.classes > tabs[0].classes+4 {
			t.Errorf("tables grew: %+v then %+v", tabs[0], tb)
		}
	}
	time.Sleep(300 * time.Millisecond)
	a := readAccount(t, r.Stderr)
	if got := a.total(); got != calls || a.exported != sink.Count() {
		t.Errorf("%d calls; profiler %+v; received %d", calls, a, sink.Count())
	}
}

// 100 million traced calls in a loop, far beyond what any exporter takes:
// the app finishes with its own output, memory stays bounded, and every
// call is exported, shed with its trace or counted as dropped.
func TestHundredMillionCalls(t *testing.T) {
	rt := runtimes[0]
	const n = 100_000_000
	args := []string{"roots", strconv.Itoa(n)}
	env := map[string]string{"CLROTEL_INCLUDE": "Acme.Shop.Tiny.Inc", "CLROTEL_LOG_LEVEL": "info", cpuBudgetEnv: defaultCPUPercent}
	plain := runApp(t, rt, "Basic", args, runOpts{timeout: 5 * time.Minute})
	sink, err := otlpsink.Listen("127.0.0.1:0", otlpsink.WithCountOnly())
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	env["OTEL_EXPORTER_OTLP_ENDPOINT"] = sink.Endpoint()
	r := runApp(t, rt, "Basic", args, runOpts{profilerNoSink: true, env: env, timeout: 5 * time.Minute})
	if r.ExitCode != plain.ExitCode || r.Stdout != plain.Stdout {
		t.Fatalf("exit %d stdout %q, untraced exit %d stdout %q\n%s", r.ExitCode, r.Stdout, plain.ExitCode, plain.Stdout, r.Stderr)
	}
	time.Sleep(300 * time.Millisecond)
	a := readAccount(t, r.Stderr)
	t.Logf("%d calls: received %d, profiler %+v; wall %v (untraced %v); peak RSS %d MB (untraced %d MB)",
		n, sink.Count(), a, r.Wall.Round(time.Millisecond), plain.Wall.Round(time.Millisecond), r.MaxRSSKB>>10, plain.MaxRSSKB>>10)
	if a.total() != n || a.exported != sink.Count() {
		t.Errorf("not every call accounted for")
	}
	if r.MaxRSSKB > plain.MaxRSSKB+150<<10 {
		t.Errorf("peak RSS %d KB against %d KB untraced", r.MaxRSSKB, plain.MaxRSSKB)
	}
	// A loop of roots past what export takes: its traces are shed whole
	// at their root (or, where that cannot be, dropped), and the log says so.
	if !strings.Contains(r.Stderr, "calls not traced") && !strings.Contains(r.Stderr, "shed under load") {
		t.Errorf("neither drops nor shed traces were logged")
	}
}

// On .NET 8 the runtime's GC-suspension handler runs on a thread's 12 KB
// alternate signal stack and, with clrotel attached but nothing traced,
// overflowed it on the main thread of this GC-heavy app (4 crashes in 48
// runs before every managed thread got a 128 KB stack; 0 in 80 after).
// 24 runs catch that rate about 9 times in 10.
func TestUntracedThreadsSurviveGCSuspension(t *testing.T) {
	for _, rt := range runtimes {
		if rt.Name == "net3.1" {
			continue // 3.1 frees whatever stack a thread has: it keeps its own
		}
		t.Run(rt.Name, func(t *testing.T) {
			for i := 0; i < 24; i++ {
				r := runApp(t, rt, "Hostile", nil, runOpts{profilerNoSink: true, env: map[string]string{
					"CLROTEL_INCLUDE": "Nothing.Matches.*", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1",
				}})
				if r.ExitCode != 0 {
					t.Fatalf("run %d: exit %d\n%s", i, r.ExitCode, r.Stderr)
				}
			}
		})
	}
}
