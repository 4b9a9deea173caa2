package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

const asyncNS = "AsyncFlow.exe!Acme.Async."

// asyncRun runs AsyncFlow traced, checking that its output is that of an
// untraced run.
func asyncRun(t *testing.T, rt dotnetRuntime, args []string, env map[string]string) run {
	t.Helper()
	plain := runApp(t, rt, "AsyncFlow", args, runOpts{timeout: 120 * time.Second})
	r := runApp(t, rt, "AsyncFlow", args, runOpts{profiler: true, env: env, timeout: 120 * time.Second})
	if plain.ExitCode != 0 || r.ExitCode != 0 || r.Stdout != plain.Stdout {
		t.Fatalf("exit %d/%d, stdout %q, untraced %q\n%s", r.ExitCode, plain.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
	}
	for _, s := range r.Spans {
		if strings.Contains(s.Name, ".MoveNext(") || strings.Contains(s.Name, "MethodBuilder") {
			t.Errorf("a state machine step or builder call is a span: %s", s.Name)
		}
	}
	return r
}

// children lists the spans whose parent is p.
func children(spans []otlpsink.Span, p otlpsink.Span) []otlpsink.Span {
	var out []otlpsink.Span
	for _, s := range spans {
		if s.ParentSpanID == p.SpanID && s.TraceID == p.TraceID {
			out = append(out, s)
		}
	}
	return out
}

// The app: three requests, each awaiting two loads. Each async
// method is one span from its call until its task completes, holding what
// ran after its awaits on pool threads; its return value is the task's
// result. Under Main it is one trace; with Main excluded, one per request.
func TestAsyncMethodSpans(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		for _, mainExcluded := range []bool{false, true} {
			env := map[string]string{}
			if mainExcluded {
				env["CLROTEL_EXCLUDE"] = "Program.Main"
			}
			r := asyncRun(t, rt, []string{"flow"}, env)
			traces := map[string]bool{}
			for _, s := range r.Spans {
				traces[s.TraceID] = true
			}
			want := 1
			if mainExcluded {
				want = 3
			}
			handles := byName(r.Spans, asyncNS+"Handler.Handle(Int32 req)")
			if len(traces) != want || len(handles) != 3 {
				t.Fatalf("Main excluded %v: %d traces (want %d), %d Handle spans\n%s", mainExcluded, len(traces), want, len(handles), dumpSpans(r.Spans))
			}
			for _, h := range handles {
				req := h.Attrs["dotnet.arg.req"].(int64)
				wantRet := fmt.Sprintf("%d/%d", req*10+1, (req+1)*10+1)
				if ret, _ := h.Attrs["dotnet.return"].(string); strings.Trim(ret, `"`) != wantRet {
					t.Errorf("Handle(%d) returned %q, want %q", req, ret, wantRet)
				}
				if h.Duration() < 30*time.Millisecond {
					t.Errorf("Handle(%d) lasted %v: less than its two 20 ms loads", req, h.Duration())
				}
				var loads, formats, scores int
				for _, c := range children(r.Spans, h) {
					switch c.Name {
					case asyncNS + "Repo.Load(Int32 id)":
						loads++
						if id := c.Attrs["dotnet.arg.id"].(int64); id != req && id != req+1 {
							t.Errorf("Load(%d) under Handle(%d): attached to the wrong flow", id, req)
						}
						// Task.Delay's timers run on the kernel's coarse
						// clock (4 ms ticks here): Delay(20) may end after
						// 16 ms, traced or not.
						if c.Duration() < 15*time.Millisecond {
							t.Errorf("Load lasted %v, less than its 20 ms delay", c.Duration())
						}
						for _, g := range children(r.Spans, c) {
							if g.Name == asyncNS+"Repo.Score(Int32 id)" {
								scores++
								if g.Start.Sub(c.Start) < 15*time.Millisecond || g.End.After(c.End) {
									t.Errorf("Score ran %v into its Load, which ended %v after it: the span ended before its task", g.Start.Sub(c.Start), c.End.Sub(g.End))
								}
							}
						}
					case asyncNS + "Handler.Format(Int32 a, Int32 b)":
						formats++
					}
				}
				if loads != 2 || scores != 2 || formats != 1 {
					t.Errorf("Handle(%d) holds %d loads, %d scores, %d formats; want 2, 2, 1\n%s", req, loads, scores, formats, dumpSpans(r.Spans))
				}
			}
		}
	})
}

// A faulted task fails its span with the exception's event; a canceled one
// ends with end_reason=canceled; async void ends when its body ends; a
// state machine compiled as a class (Roslyn's Debug builds) works as a
// struct does; async recursion 1,000 deep nests.
func TestAsyncMethodOutcomes(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		// Values on every span: the recursion's 1,001 spans are one trace.
		r := asyncRun(t, rt, []string{"cases"}, map[string]string{"CLROTEL_MAX_VALUE_SPANS_PER_TRACE": "0"})
		one := func(name string) otlpsink.Span {
			t.Helper()
			s := byName(r.Spans, asyncNS+name)
			if len(s) != 1 {
				t.Fatalf("%d spans %s\n%v", len(s), name, spanNames(r.Spans))
			}
			return s[0]
		}
		fail := one("Cases.Fail(Int32 code)")
		if fail.StatusCode != "error" || !strings.Contains(fail.StatusMsg, "InvalidOperationException") || !strings.Contains(fail.StatusMsg, "failed 7") {
			t.Errorf("faulted task: status %s %q", fail.StatusCode, fail.StatusMsg)
		}
		var excEvent bool
		for _, e := range fail.Events {
			excEvent = excEvent || (e.Name == "exception" && e.Attrs["exception.message"] == "failed 7")
		}
		// Timers run on the kernel's coarse clock (4 ms ticks here): a
		// Delay(d) may end up to a tick early, traced or not.
		if !excEvent || fail.Duration() < 1*time.Millisecond {
			t.Errorf("faulted task: exception event %v, lasted %v; events %v", excEvent, fail.Duration(), fail.Events)
		}
		cancel := one("Cases.Cancel(System.Threading.CancellationToken ct)")
		if cancel.Attrs["clrotel.end_reason"] != "canceled" || cancel.StatusCode == "error" {
			t.Errorf("canceled task: end_reason %v, status %s %q", cancel.Attrs["clrotel.end_reason"], cancel.StatusCode, cancel.StatusMsg)
		}
		void := one("Cases.FireAndForget(Int32 n, System.Threading.ManualResetEventSlim done)")
		touch := one("Cases.Touch(Int32 n)")
		if void.Duration() < 10*time.Millisecond || touch.ParentSpanID != void.SpanID {
			t.Errorf("async void: lasted %v, Touch under it %v", void.Duration(), touch.ParentSpanID == void.SpanID)
		}
		sum := one("ClassMachine.Sum(Int32 n)")
		steps := 0
		for _, c := range children(r.Spans, sum) {
			if c.Name == asyncNS+"ClassMachine.Step(Int32 k)" {
				steps++
			}
		}
		if sum.Duration() < 15*time.Millisecond || steps != 2 || sum.Attrs["dotnet.return"] != int64(6) {
			t.Errorf("class state machine: lasted %v, %d steps under it, return %v", sum.Duration(), steps, sum.Attrs["dotnet.return"])
		}
		deep := byName(r.Spans, asyncNS+"Cases.Deep(Int32 n)")
		if len(deep) != 1001 {
			t.Fatalf("%d Deep spans, want 1001", len(deep))
		}
		ids := byID(r.Spans)
		for _, d := range deep {
			n := d.Attrs["dotnet.arg.n"].(int64)
			if d.Attrs["dotnet.return"] != n {
				t.Fatalf("Deep(%d) returned %v", n, d.Attrs["dotnet.return"])
			}
			if n < 1000 {
				if p, ok := ids[d.ParentSpanID]; !ok || p.Attrs["dotnet.arg.n"] != n+1 {
					t.Fatalf("Deep(%d) is not under Deep(%d): parent %q", n, n+1, parentName(ids, d))
				}
			}
		}
	})
}

// Async methods of a generic class, instantiated over a value type (code
// of its own, whose layout is known when it compiles) and over a reference
// type (code shared by every such instantiation, whose state machine's
// fields are found in the layout of each call's exact class): each is one
// span until its task completes, with the task's result.
func TestAsyncGenericMethods(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "AsyncFlow", []string{"generic"}, runOpts{profiler: true})
		if r.ExitCode != 0 || r.Stdout != "s\n42\n" {
			t.Fatalf("exit %d, stdout %q\n%s", r.ExitCode, r.Stdout, r.Stderr)
		}
		for _, c := range []struct {
			inst string
			ret  any
		}{{"Int32", int64(42)}, {"String", "s"}} {
			gets := byName(r.Spans, asyncNS+"Box<"+c.inst+">.Get("+c.inst+" v)")
			if len(gets) != 1 {
				t.Fatalf("%d Get spans of Box<%s>\n%v", len(gets), c.inst, spanNames(r.Spans))
			}
			g := gets[0]
			keeps := 0
			for _, k := range children(r.Spans, g) {
				if k.Name == asyncNS+"Box<"+c.inst+">.Keep("+c.inst+" v)" && !k.End.After(g.End) {
					keeps++
				}
			}
			if reason := g.Attrs["clrotel.end_reason"]; reason != nil || keeps != 1 || g.Attrs["dotnet.return"] != c.ret {
				t.Errorf("Box<%s>.Get: ended as %v, %d Keep after its await inside it, returned %v (want %v)\n%s",
					c.inst, reason, keeps, g.Attrs["dotnet.return"], c.ret, dumpSpans(r.Spans))
			}
		}
	})
}

// An async method whose state machine is not traced (its MoveNext
// excluded) cannot be followed to its task's end: its span ends with the
// call, as it did before async methods were followed, never left open.
func TestAsyncUnpairedEndsWithCall(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := asyncRun(t, rt, []string{"flow"}, map[string]string{"CLROTEL_EXCLUDE": "*.MoveNext"})
		handles := byName(r.Spans, asyncNS+"Handler.Handle(Int32 req)")
		if len(handles) != 3 {
			t.Fatalf("%d Handle spans", len(handles))
		}
		// Ended with its call: before the second Load's Score, which runs
		// after the first await and the second Load's (unless, on a machine
		// slow enough, the awaits completed before Handle returned and it
		// ran inside the call).
		ids := byID(r.Spans)
		for _, h := range handles {
			req := h.Attrs["dotnet.arg.req"].(int64)
			var f otlpsink.Span
			for _, s := range byName(r.Spans, asyncNS+"Repo.Score(Int32 id)") {
				if s.Attrs["dotnet.arg.id"] == req+1 {
					f = s
				}
			}
			if f.SpanID == "" {
				t.Fatalf("no Score span for request %d\n%s", req, dumpSpans(r.Spans))
			}
			inside := false
			for p, i := f, 0; i < 10 && p.ParentSpanID != ""; i++ {
				p = ids[p.ParentSpanID]
				inside = inside || p.SpanID == h.SpanID
			}
			if h.Attrs["clrotel.end_reason"] != nil || (!inside && h.End.After(f.Start)) {
				t.Errorf("Handle(%d): end reason %v, ended %v after its second Score began: want it to end with its call",
					req, h.Attrs["clrotel.end_reason"], h.End.Sub(f.Start))
			}
		}
	})
}

// Work a traced method queues (Task.Run, StartNew, QueueUserWorkItem, a
// new Thread, a Timer, ContinueWith, Parallel.For, an async lambda) with lambdas that
// capture its state runs in the method's trace, under the span of the
// closure it made there, whatever thread runs it.
func TestQueuedWorkNestsUnderItsMaker(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := asyncRun(t, rt, []string{"queued"}, map[string]string{"CLROTEL_EXCLUDE": "Program.Main"})
		ids := byID(r.Spans)
		runs := byName(r.Spans, asyncNS+"Queued.Run(Int32 id)")
		if len(runs) != 2 {
			t.Fatalf("%d Run spans\n%s", len(runs), dumpSpans(r.Spans))
		}
		works := byName(r.Spans, asyncNS+"Queued.Work(Int32 id)")
		if len(works) != 2*(7+4) {
			t.Fatalf("%d Work spans, want 22\n%s", len(works), dumpSpans(r.Spans))
		}
		for _, w := range works {
			id := w.Attrs["dotnet.arg.id"].(int64)
			want := id / 10
			if id >= 100 {
				want = id / 100
			}
			// Up the parents to a Run span: it must be the one that
			// queued this work.
			p, found := w, false
			for i := 0; i < 10 && p.ParentSpanID != ""; i++ {
				p = ids[p.ParentSpanID]
				if p.Name == asyncNS+"Queued.Run(Int32 id)" {
					found = p.Attrs["dotnet.arg.id"] == want && p.TraceID == w.TraceID
					break
				}
			}
			if !found {
				t.Errorf("Work(%d) is not under Run(%d): parent %q\n%s", id, want, parentName(ids, w), dumpSpans(r.Spans))
				return
			}
		}
	})
}

// Work queued with callbacks that capture nothing (method groups, lambdas
// given their state as an argument) nests under the span that queued it,
// through the work item CoreLib makes for it, with two flows at once; and
// an item moved by a full compacting collection before it runs keeps its
// link: on .NET Core 3.1 through MovedReferences2, on .NET 8 (which gives
// those only to a profiler that asked for COR_PRF_MONITOR_GC) through the
// runtime's GC events, read from an EventPipe session.
//
// Twice: with the defaults (Go starts at Initialize), and with only the
// app's namespace included, where Main's threads hook CoreLib's specials
// before Go starts (placeholders, given their roles when it does). On .NET
// Core 3.1 a thread (v%10 == 4) is linked too: its Start is compiled, not
// taken from ReadyToRun code that inlines the method handing its
// ThreadHelper the context.
func TestUncapturedWorkNestsUnderItsMaker(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		// Without tiered compilation CoreLib's work-item runs are optimized
		// from their first call: QueueUserWorkItem's and a thread's start
		// jump to their callbacks (tail calls).
		for _, sel := range []map[string]string{{"CLROTEL_EXCLUDE": "Program.Main"}, {"CLROTEL_INCLUDE": "Acme.Async.*"},
			{"CLROTEL_EXCLUDE": "Program.Main", "DOTNET_TieredCompilation": "0", "COMPlus_TieredCompilation": "0"}} {
			env := map[string]string{"CLROTEL_FOLD": "off", "CLROTEL_LOG_LEVEL": "info"}
			for k, v := range sel {
				env[k] = v
			}
			uncapturedNests(t, rt, env)
		}
	})
}

func uncapturedNests(t *testing.T, rt dotnetRuntime, env map[string]string) {
	t.Helper()
	{
		r := asyncRun(t, rt, []string{"uncaptured"}, env)
		ids := byID(r.Spans)
		const run, gc = asyncNS + "Uncaptured.Run(Int32 id)", asyncNS + "Uncaptured.AcrossGC(Int32 id)"
		works := byName(r.Spans, asyncNS+"Uncaptured.Work(Int32 v)")
		if len(works) != 2*(7+4)+1 {
			t.Fatalf("%d Work spans, want 23\n%s", len(works), dumpSpans(r.Spans))
		}
		for _, w := range works {
			v := w.Attrs["dotnet.arg.v"].(int64)
			want, maker := v/10, run
			if v >= 100 {
				want = v / 100
			}
			if want == 3 {
				maker = gc
			}
			p, found := w, false
			for i := 0; i < 10 && p.ParentSpanID != ""; i++ {
				p = ids[p.ParentSpanID]
				if p.Name == maker {
					found = p.Attrs["dotnet.arg.id"] == want && p.TraceID == w.TraceID
					break
				}
			}
			if !found {
				t.Errorf("Work(%d) is not under %s(%d): parent %q\n%s", v, maker, want, parentName(ids, w), dumpSpans(r.Spans))
				return
			}
		}
		if rt.Name == "net8" && !strings.Contains(r.Stderr, "GC range events read from the EventPipe session") {
			t.Errorf("the exit log does not say that moves came from the EventPipe session:\n%s", r.Stderr)
		}
	}
}

// A work item keeps its link through one collection of each kind before it
// runs: a full compacting one, a full blocking one asked not to compact, and
// a generation-0 one. On .NET 8 the runtime reports them all through its GC
// events (the EventPipe session); .NET Core 3.1's MovedReferences2 covers
// the compacting one only, and the item another one forgets starts a trace
// of its own, counted.
func TestWorkItemsAcrossCollectionKinds(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := asyncRun(t, rt, []string{"acrosskinds"}, map[string]string{"CLROTEL_EXCLUDE": "Program.Main", "CLROTEL_FOLD": "off", "CLROTEL_LOG_LEVEL": "info"})
		ids := byID(r.Spans)
		works := byName(r.Spans, asyncNS+"Uncaptured.Work(Int32 v)")
		if len(works) != 3 {
			t.Fatalf("%d Work spans, want 3\n%s", len(works), dumpSpans(r.Spans))
		}
		linked := 0
		for _, w := range works {
			v := w.Attrs["dotnet.arg.v"].(int64)
			p, found := w, false
			for i := 0; i < 10 && p.ParentSpanID != ""; i++ {
				p = ids[p.ParentSpanID]
				if p.Name == asyncNS+"Uncaptured.AcrossKinds(Int32 id)" {
					found = p.Attrs["dotnet.arg.id"] == int64(4) && p.TraceID == w.TraceID
					break
				}
			}
			switch {
			case found:
				linked++
			case rt.Name == "net3.1" && v != 41:
				// Forgotten by a collection 3.1 does not report: a trace
				// of its own (its lambda's span, then Work).
				if w.ParentSpanID == "" || ids[w.ParentSpanID].ParentSpanID != "" {
					t.Errorf("Work(%d) on %s: want a trace of its own, parent %q\n%s", v, rt.Name, parentName(ids, w), dumpSpans(r.Spans))
				}
			default:
				t.Errorf("Work(%d) on %s is not under AcrossKinds(4): parent %q\n%s", v, rt.Name, parentName(ids, w), dumpSpans(r.Spans))
			}
		}
		if linked < 3 && !strings.Contains(r.Stderr, "forgotten at a collection") {
			t.Errorf("%d of 3 linked, and no item counted as forgotten:\n%s", linked, r.Stderr)
		}
		if rt.Name == "net8" && !strings.Contains(r.Stderr, "GC range events read from the EventPipe session") {
			t.Errorf("the exit log does not say that moves came from the EventPipe session:\n%s", r.Stderr)
		}
	})
}

// 10,000 work items pending at once, each made under its own span: every
// item's work nests under its own maker (none under another's), except
// those the table had no room for, which start traces of their own.
func TestManyPendingWorkItems(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		const n = 10000
		r := asyncRun(t, rt, []string{"manyitems", fmt.Sprint(n)},
			map[string]string{"CLROTEL_EXCLUDE": "Program.Main", "CLROTEL_FOLD": "off", "CLROTEL_RING_KB": "32768", "CLROTEL_LOG_LEVEL": "info", "CLROTEL_MAX_SPANS_PER_TRACE": "0", "CLROTEL_MAX_VALUE_SPANS_PER_TRACE": "0"})
		ids := byID(r.Spans)
		makes := byName(r.Spans, asyncNS+"ManyItems.Make(Int32 id)")
		works := byName(r.Spans, asyncNS+"ManyItems.Work(Int32 id)")
		if len(makes) != n || len(works) != n {
			t.Fatalf("%d Make and %d Work spans, want %d each\n%s", len(makes), len(works), n, r.Stderr)
		}
		linked := 0
		for _, w := range works {
			p := w
			for p.ParentSpanID != "" && !strings.HasSuffix(p.Name, "ManyItems.Make(Int32 id)") {
				p = ids[p.ParentSpanID]
			}
			switch {
			case p.ParentSpanID == "" && !strings.HasSuffix(p.Name, "ManyItems.Make(Int32 id)"):
				// a trace of its own
			case p.Attrs["dotnet.arg.id"] != w.Attrs["dotnet.arg.id"] || p.TraceID != w.TraceID:
				t.Fatalf("Work(%v) is under Make(%v)", w.Attrs["dotnet.arg.id"], p.Attrs["dotnet.arg.id"])
			default:
				linked++
			}
		}
		var full int
		if i := strings.Index(r.Stderr, "work items not recorded, the table was full"); i >= 0 {
			fmt.Sscanf(r.Stderr[strings.LastIndex(r.Stderr[:i], "queued work: ")+len("queued work: "):], "%d", &full)
		}
		t.Logf("%d of %d linked, %d not recorded (table full)", linked, n, full)
		if linked+full < n {
			t.Errorf("%d linked and %d counted as not recorded: %d items lost without a count\n%s", linked, full, n-linked-full, r.Stderr)
		}
		if linked < n/2 {
			t.Errorf("only %d of %d linked", linked, n)
		}
	})
}

// A promise-style task (a TaskCompletionSource's; HttpListener's
// GetContextAsync makes one per request) never runs as a work item, so its
// making is not recorded: only the Task.Run items made beside them are,
// and every one of those continues its maker's trace. Recorded, the
// promises would wait in the table until a collection forgot them.
func TestPromiseTasksAreNoWorkItems(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		const n = 2000
		r := asyncRun(t, rt, []string{"promises", fmt.Sprint(n)},
			map[string]string{"CLROTEL_EXCLUDE": "Program.Main", "CLROTEL_FOLD": "off", "CLROTEL_LOG_LEVEL": "info"})
		ids := byID(r.Spans)
		makes := byName(r.Spans, asyncNS+"Promises.Make(Int32 id)")
		works := byName(r.Spans, asyncNS+"Promises.Work(Int32 id)")
		if len(makes) != n || len(works) != n {
			t.Fatalf("%d Make and %d Work spans, want %d each\n%s", len(makes), len(works), n, r.Stderr)
		}
		for _, w := range works {
			p := w
			for p.ParentSpanID != "" && !strings.HasSuffix(p.Name, "Promises.Make(Int32 id)") {
				p = ids[p.ParentSpanID]
			}
			if p.Attrs["dotnet.arg.id"] != w.Attrs["dotnet.arg.id"] || p.TraceID != w.TraceID {
				t.Fatalf("Work(%v) is not under its Make: under %s (%v)", w.Attrs["dotnet.arg.id"], p.Name, p.Attrs["dotnet.arg.id"])
			}
		}
		var made, joined int
		if i := strings.Index(r.Stderr, "queued work: "); i < 0 {
			t.Fatalf("no queued work line in the exit log\n%s", r.Stderr)
		} else if _, err := fmt.Sscanf(r.Stderr[i:], "queued work: %d work items made under a span, %d runs", &made, &joined); err != nil {
			t.Fatalf("queued work line: %v\n%s", err, r.Stderr[i:])
		}
		// Task.Run's n items, and a few the runtime makes on its own.
		if made < n || made > n+n/20 {
			t.Errorf("%d work items made under a span, want the %d Task.Run items (the %d promises are none)\n%s", made, n, n, r.Stderr)
		}
		if strings.Contains(r.Stderr, "work items forgotten") {
			t.Errorf("items forgotten at a collection: a promise was recorded\n%s", r.Stderr)
		}
	})
}

// 10,000 flows in flight at once, each resumed on the pool: every step
// stays with its own flow.
func TestAsyncConcurrentFlows(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		const n = 10000
		// Folding off: every Check must be a span, to be matched.
		r := asyncRun(t, rt, []string{"many", fmt.Sprint(n)},
			map[string]string{"CLROTEL_EXCLUDE": "Program.Main", "CLROTEL_RING_KB": "32768", "CLROTEL_FOLD": "off"})
		waits := byName(r.Spans, asyncNS+"Cases.Wait(Int32 id, System.Threading.Tasks.Task gate)")
		if len(waits) != n {
			t.Fatalf("%d Wait spans, want %d\n%s", len(waits), n, r.Stderr)
		}
		checks := map[string]otlpsink.Span{}
		for _, c := range byName(r.Spans, asyncNS+"Cases.Check(Int32 id)") {
			checks[c.ParentSpanID] = c
		}
		for _, w := range waits {
			c, ok := checks[w.SpanID]
			if !ok || c.TraceID != w.TraceID || c.Attrs["dotnet.arg.id"] != w.Attrs["dotnet.arg.id"] {
				var same []string
				for _, x := range r.Spans {
					if x.Attrs["dotnet.arg.id"] == w.Attrs["dotnet.arg.id"] {
						same = append(same, fmt.Sprintf("%s %s parent %s trace %s %v", x.Name, x.SpanID, x.ParentSpanID, x.TraceID, x.Attrs))
					}
				}
				t.Fatalf("Wait(%v) %s: its Check is %v (arg %v)\n%s\n%s", w.Attrs["dotnet.arg.id"], w.SpanID, ok, c.Attrs["dotnet.arg.id"], strings.Join(same, "\n"), r.Stderr)
			}
		}
	})
}

// Calls folded while an async method runs after an await (a hot, short
// method, folded by the default rule) are counted on the async span. The
// rule judges only a method called again in the same trace: called once
// in each flow's trace, after its await, Check keeps every span; called
// twice, it folds and is counted there.
func TestAsyncFoldedIntoAsyncSpan(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		const n = 3000
		for _, tc := range []struct {
			mode, wait string
			per        int  // Check calls per flow
			folds      bool // whether some fold
		}{
			{"many", "Cases.Wait(Int32 id, System.Threading.Tasks.Task gate)", 1, false},
			{"manytwice", "Cases.WaitTwice(Int32 id, System.Threading.Tasks.Task gate)", 2, true},
		} {
			t.Run(tc.mode, func(t *testing.T) {
				r := asyncRun(t, rt, []string{tc.mode, fmt.Sprint(n)},
					// Exact counts: re-JIT off (it stops counting; TestFoldReJIT).
					map[string]string{"CLROTEL_EXCLUDE": "Program.Main", "CLROTEL_RING_KB": "32768", "CLROTEL_FOLD_MIN_CALLS": "100", "CLROTEL_FOLD_REJIT": "off"})
				waits := byName(r.Spans, asyncNS+tc.wait)
				checks := len(byName(r.Spans, asyncNS+"Cases.Check(Int32 id)"))
				var folded int64
				for _, w := range waits {
					if c, ok := w.Attrs["clrotel.folded.count"].(int64); ok {
						folded += c
					}
				}
				if len(waits) != n || (folded != 0) != tc.folds || int64(checks)+folded != int64(tc.per*n) {
					t.Errorf("%d Wait spans, %d Check spans, %d Check calls folded into Wait spans: want %d calls in all, folded: %v", len(waits), checks, folded, tc.per*n, tc.folds)
				}
			})
		}
	})
}

// Tasks that never complete end as abandoned at exit; past
// CLROTEL_ASYNC_MAX_PENDING they end at once, counted.
func TestAsyncNeverCompleted(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := asyncRun(t, rt, []string{"never", "50"}, map[string]string{"CLROTEL_ASYNC_MAX_PENDING": "20", "CLROTEL_LOG_LEVEL": "info"})
		reasons := map[any]int{}
		for _, s := range byName(r.Spans, asyncNS+"Cases.Never(System.Threading.Tasks.TaskCompletionSource<Int32> tcs)") {
			reasons[s.Attrs["clrotel.end_reason"]]++
		}
		if reasons["abandoned"] != 20 || reasons["async_untracked"] != 30 || !strings.Contains(r.Stderr, "30 async spans ended untracked") {
			t.Errorf("end reasons %v\n%s", reasons, r.Stderr)
		}
	})
}

// Each step of a flow runs after compacting collections have moved its
// task (and the state machine in it): the flow's identity is carried by
// the state machine itself, so nothing is lost.
func TestAsyncFlowsAcrossCompactingGC(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		const n = 200
		// Every step a span: 3n calls of Check() would fold by the
		// default rule (250 calls).
		r := asyncRun(t, rt, []string{"gc", fmt.Sprint(n)}, map[string]string{"CLROTEL_EXCLUDE": "Program.Main", "CLROTEL_FOLD": "off"})
		if !strings.HasSuffix(strings.TrimSpace(r.Stdout), "True") {
			t.Fatalf("no gen-2 collection ran: %q", r.Stdout)
		}
		moving := byName(r.Spans, asyncNS+"Cases.Moving(Int32 id)")
		if len(moving) != n {
			t.Fatalf("%d Moving spans, want %d", len(moving), n)
		}
		for _, m := range moving {
			cs := children(r.Spans, m)
			if len(cs) != 3 {
				t.Fatalf("Moving(%v) holds %d steps, want 3", m.Attrs["dotnet.arg.id"], len(cs))
			}
			for _, c := range cs {
				if c.Attrs["dotnet.arg.id"] != m.Attrs["dotnet.arg.id"] {
					t.Fatalf("Moving(%v) holds Check(%v)", m.Attrs["dotnet.arg.id"], c.Attrs["dotnet.arg.id"])
				}
			}
		}
	})
}

// Work queued where the caller's ExecutionContext does not flow
// (ThreadPool.UnsafeQueueUserWorkItem, or Task.Run under
// ExecutionContext.SuppressFlow) starts a trace of its own at the lambda
// that runs it, with a span link to the maker that made its closure (the
// closure's constructor is the compiler's plumbing, no span); flowing work
// stays nested, and so does a continuation run inline inside the hooked
// ContinueWith.
func TestSuppressedFlowStartsLinkedTrace(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := asyncRun(t, rt, []string{"suppressed"}, map[string]string{"CLROTEL_EXCLUDE": "Program.Main"})
		ids := byID(r.Spans)
		works := byName(r.Spans, asyncNS+"Suppressed.Work(Int32 id)")
		if len(works) != 8 {
			t.Fatalf("%d Work spans, want 8\n%s", len(works), dumpSpans(r.Spans))
		}
		makers := map[int64]string{0: "Unsafe", 10: "Suppress", 20: "Flowing", 30: "Inline"}
		for _, w := range works {
			id := w.Attrs["dotnet.arg.id"].(int64)
			maker := makers[id/10*10]
			var m otlpsink.Span
			for _, s := range byName(r.Spans, asyncNS+"Suppressed."+maker+"(Int32 id)") {
				if s.Attrs["dotnet.arg.id"] == id {
					m = s
				}
			}
			if m.SpanID == "" {
				t.Fatalf("no %s(%d) span\n%s", maker, id, dumpSpans(r.Spans))
			}
			// The work's root: the lambda that ran it.
			root := w
			for i := 0; i < 10 && root.ParentSpanID != ""; i++ {
				root = ids[root.ParentSpanID]
			}
			if maker == "Flowing" || maker == "Inline" {
				if root.SpanID != m.SpanID || len(root.Links) != 0 {
					t.Errorf("Work(%d): root %q (links %v), want under Flowing(%d)\n%s", id, root.Name, root.Links, id, dumpSpans(r.Spans))
				}
				continue
			}
			if w.TraceID == m.TraceID {
				t.Errorf("Work(%d) is in the trace of %s(%d): the flow was suppressed\n%s", id, maker, id, dumpSpans(r.Spans))
				continue
			}
			if lambda := asyncNS + "Suppressed." + maker + "()::lambda#"; !strings.HasPrefix(root.Name, lambda) || w.ParentSpanID != root.SpanID {
				t.Errorf("Work(%d)'s root is %q (Work's parent %q), want the lambda %s… right above it\n%s", id, root.Name, parentName(ids, w), lambda, dumpSpans(r.Spans))
			}
			if len(root.Links) != 1 {
				t.Errorf("Work(%d)'s root %q has %d links, want 1\n%s", id, root.Name, len(root.Links), dumpSpans(r.Spans))
				continue
			}
			if l := root.Links[0]; l.TraceID != m.TraceID || l.SpanID != m.SpanID {
				t.Errorf("Work(%d)'s root links to %s/%s (%q), want %s(%d), which made its closure\n%s",
					id, l.TraceID, l.SpanID, ids[l.SpanID].Name, maker, id, dumpSpans(r.Spans))
			}
		}
		for _, s := range r.Spans {
			if strings.Contains(s.Name, "c__AnonStorey") || strings.Contains(s.Name, "DisplayClass") {
				t.Errorf("the compiler's plumbing is a span: %s", s.Name)
			}
		}
	})
}

// An iterator method (IteratorStateMachineAttribute naming its
// enumerator: Roslyn's shape) is one span per enumeration: from its call
// until the enumerator is disposed, its steps' calls as children, the
// elements yielded counted; MoveNext and Dispose are not spans. One never
// enumerated ends at exit, abandoned.
func TestIteratorOneSpanPerEnumeration(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := asyncRun(t, rt, []string{"iter"}, nil)
		ids := byID(r.Spans)
		its := byName(r.Spans, asyncNS+"Iter.Squares(Int32 n)")
		if len(its) != 2 {
			t.Fatalf("%d Squares spans, want 2\n%s", len(its), dumpSpans(r.Spans))
		}
		var full, never otlpsink.Span
		for _, s := range its {
			if s.Attrs["dotnet.arg.n"] == int64(4) {
				full = s
			} else {
				never = s
			}
		}
		squares := byName(r.Spans, asyncNS+"Iter.Square(Int32 i)")
		if len(squares) != 4 {
			t.Fatalf("%d Square spans, want 4\n%s", len(squares), dumpSpans(r.Spans))
		}
		for _, sq := range squares {
			if sq.ParentSpanID != full.SpanID || sq.End.After(full.End) {
				t.Errorf("Square(%v) is under %q (ending %v after the enumeration), want under Squares(4)\n%s",
					sq.Attrs["dotnet.arg.i"], parentName(ids, sq), sq.End.Sub(full.End), dumpSpans(r.Spans))
			}
		}
		if full.Attrs["clrotel.iterator.yielded"] != int64(4) || never.Attrs["clrotel.iterator.yielded"] != nil {
			t.Errorf("elements yielded: enumerated %v, never enumerated %v; want 4 and none", full.Attrs["clrotel.iterator.yielded"], never.Attrs["clrotel.iterator.yielded"])
		}
		if full.Attrs["clrotel.end_reason"] != nil || never.Attrs["clrotel.end_reason"] != "abandoned" {
			t.Errorf("end reasons: enumerated %v, never enumerated %v; want none and abandoned", full.Attrs["clrotel.end_reason"], never.Attrs["clrotel.end_reason"])
		}
		for _, s := range r.Spans {
			if strings.Contains(s.Name, "SquaresIterator.MoveNext") || strings.Contains(s.Name, "Dispose") || strings.Contains(s.Name, "SquaresIterator..ctor") {
				t.Errorf("an iterator step is a span: %s", s.Name)
			}
		}
	})
}

// Hooked framework methods that carry a link but make no span (work
// items' makers and runs, queuing methods) are not calls: on a thread
// that found no capture slot (CLROTEL_MAX_THREADS=1: the pool threads)
// they are not counted as calls dropped. Every call of the app's own is
// counted exactly once (generator seeds 700, 709, 714 with settings
// varied counted a few more with capture on than off).
func TestWorkItemHooksAreNotCalls(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		const n = 300
		r := asyncRun(t, rt, []string{"manyitems", fmt.Sprint(n)},
			map[string]string{"CLROTEL_EXCLUDE": "Program.Main", "CLROTEL_FOLD": "off", "CLROTEL_MAX_THREADS": "1", "CLROTEL_MAX_SPANS_PER_TRACE": "0", "CLROTEL_LOG_LEVEL": "info"})
		// Run, then per item Make, its lambda and Work.
		if a := readAccount(t, r.Stderr); a.total() != 3*n+1 {
			t.Errorf("%d calls accounted, want %d: %+v", a.total(), 3*n+1, a)
		}
	})
}

// A call the hooks keep no frame for is counted as a recorded one would
// be. An enumeration begun on a thread with no capture slot
// (CLROTEL_MAX_THREADS=1) is one call dropped; an async method started
// past CLROTEL_MAX_DEPTH resumes on a pool thread, where it is recorded,
// as a step of a dropped call, not as a call of its own. So the same
// program accounts for as many calls under either limit as with none
// (generator seeds 777010 and 777023 with CLROTEL_MAX_THREADS=2 counted
// one or two fewer, or more, than their runs with capture off).
func TestUnrecordedCallsCountAsRecorded(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		args := []string{"unrecorded", "20"}
		env := func(k, v string) map[string]string {
			m := map[string]string{"CLROTEL_FOLD": "off", "CLROTEL_MAX_SPANS_PER_TRACE": "0", "CLROTEL_EXPORT_CPU_PERCENT": "0", "CLROTEL_LOG_LEVEL": "info"}
			if k != "" {
				m[k] = v
			}
			return m
		}
		free := readAccount(t, asyncRun(t, rt, args, env("", "")).Stderr)
		if free.dropped != 0 || free.total() == 0 {
			t.Fatalf("with no limit: %+v", free)
		}
		for _, lim := range [][2]string{{"CLROTEL_MAX_THREADS", "1"}, {"CLROTEL_MAX_DEPTH", "16"}} {
			a := readAccount(t, asyncRun(t, rt, args, env(lim[0], lim[1])).Stderr)
			if a.dropped == 0 {
				t.Errorf("%s=%s: no call dropped, so the limit was never reached: %+v", lim[0], lim[1], a)
			}
			if a.total() != free.total() {
				t.Errorf("%s=%s: %d calls accounted (%+v), %d with no limit (%+v)", lim[0], lim[1], a.total(), a, free.total(), free)
			}
		}
	})
}
