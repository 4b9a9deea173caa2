package e2e

import (
	"net"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestSpanNamesAndNesting(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Basic", []string{"names"}, runOpts{profiler: true})
		if r.ExitCode != 0 {
			t.Fatalf("exit %d\n%s", r.ExitCode, r.Stderr)
		}
		all := byID(r.Spans)
		// Each expected span: its name, its parent's name, code.function.name.
		want := []struct{ name, parent, fn string }{
			{"Basic.exe!Program.Main(String[] args)", "", "Program.Main"},
			{"Basic.exe!Program.Names()", "Basic.exe!Program.Main(String[] args)", "Program.Names"},
			{"Basic.exe!Acme.Shop.Cart..ctor()", "Basic.exe!Program.Names()", "Acme.Shop.Cart..ctor"},
			{"Basic.exe!Acme.Shop.Item..ctor(String name, Double price)", "Basic.exe!Program.Names()", "Acme.Shop.Item..ctor"},
			{"Basic.exe!Acme.Shop.Cart.Add(Acme.Shop.Item item, Int32 quantity)", "Basic.exe!Program.Names()", "Acme.Shop.Cart.Add"},
			{"Basic.exe!Acme.Shop.Cart.Total()", "Basic.exe!Program.Names()", "Acme.Shop.Cart.Total"},
			{"Basic.exe!Acme.Shop.Cart.Twice(Int32 x)", "Basic.exe!Program.Names()", "Acme.Shop.Cart.Twice"},
			{"Basic.exe!Acme.Shop.Cart.Put(Int32 x)", "Basic.exe!Program.Names()", "Acme.Shop.Cart.Put"},
			{"Basic.exe!Acme.Shop.Cart.Put(String s)", "Basic.exe!Program.Names()", "Acme.Shop.Cart.Put"},
			{"Basic.exe!Acme.Shop.Cart.Put(Int32 x, Int32 y)", "Basic.exe!Program.Names()", "Acme.Shop.Cart.Put"},
			{"Basic.exe!Acme.Shop.Cart.Line..ctor()", "Basic.exe!Program.Names()", "Acme.Shop.Cart.Line..ctor"},
			{"Basic.exe!Acme.Shop.Cart.Line.Note..ctor()", "Basic.exe!Program.Names()", "Acme.Shop.Cart.Line.Note..ctor"},
			{"Basic.exe!Acme.Shop.Cart.Line.Qty(Int32 q)", "Basic.exe!Program.Names()", "Acme.Shop.Cart.Line.Qty"},
			{"Basic.exe!Acme.Shop.Cart.Line.Note.Text(String s)", "Basic.exe!Program.Names()", "Acme.Shop.Cart.Line.Note.Text"},
			{"Basic.exe!Acme.Shop.Repo<Acme.Shop.Item>..ctor(Acme.Shop.Item value)", "Basic.exe!Program.Names()", "Acme.Shop.Repo<Acme.Shop.Item>..ctor"},
			{"Basic.exe!Acme.Shop.Repo<Acme.Shop.Item>.Find<Int32>(Int32 key)", "Basic.exe!Program.Names()", "Acme.Shop.Repo<Acme.Shop.Item>.Find<Int32>"},
			{"Basic.exe!Acme.Shop.Repo<Acme.Shop.Item>.Get(Int32 index)", "Basic.exe!Program.Names()", "Acme.Shop.Repo<Acme.Shop.Item>.Get"},
			{"Basic.exe!Acme.Shop.Repo<Int32>..ctor(Int32 value)", "Basic.exe!Program.Names()", "Acme.Shop.Repo<Int32>..ctor"},
			{"Basic.exe!Acme.Shop.Repo<Int32>.Find<String>(String key)", "Basic.exe!Program.Names()", "Acme.Shop.Repo<Int32>.Find<String>"},
			{"Basic.exe!Acme.Shop.Util.Echo<String>(String v)", "Basic.exe!Program.Names()", "Acme.Shop.Util.Echo<String>"},
			{"Basic.exe!Acme.Shop.Util.Echo<Int32>(Int32 v)", "Basic.exe!Program.Names()", "Acme.Shop.Util.Echo<Int32>"},
		}
		for _, w := range want {
			got := byName(r.Spans, w.name)
			if len(got) != 1 {
				t.Errorf("%d spans named %q, want 1", len(got), w.name)
				continue
			}
			s := got[0]
			if p := parentName(all, s); p != w.parent {
				t.Errorf("%s: parent %q, want %q", w.name, p, w.parent)
			}
			if fn := s.Attrs["code.function.name"]; fn != w.fn {
				t.Errorf("%s: code.function.name %v, want %q", w.name, fn, w.fn)
			}
			if s.Attrs["dotnet.module"] != "Basic.exe" || s.Attrs["dotnet.assembly"] != "Basic" {
				t.Errorf("%s: module %v, assembly %v", w.name, s.Attrs["dotnet.module"], s.Attrs["dotnet.assembly"])
			}
			if s.End.Before(s.Start) {
				t.Errorf("%s: ends before it starts", w.name)
			}
		}
		if len(r.Spans) != len(want) {
			t.Errorf("%d spans, want %d:\n%s", len(r.Spans), len(want), strings.Join(spanNames(r.Spans), "\n"))
		}
		if s := byName(r.Spans, "Basic.exe!Acme.Shop.Cart.Total()"); len(s) == 1 && s[0].Attrs["dotnet.method.return_type"] != "Double" {
			t.Errorf("Total return type %v", s[0].Attrs["dotnet.method.return_type"])
		}
		// One trace: everything hangs off Main.
		traces := map[string]bool{}
		for _, s := range r.Spans {
			traces[s.TraceID] = true
			if s.Resource["service.name"] != "e2e-Basic" {
				t.Fatalf("service.name %v", s.Resource["service.name"])
			}
		}
		if len(traces) != 1 {
			t.Errorf("%d traces, want 1:\n%s", len(traces), dumpSpans(r.Spans))
		}
	})
}

// TestThreadsNestUnderTheirStarter: threads started from traced code with
// lambdas that capture state run in the starter's trace, each on its own
// thread id.
func TestThreadsNestUnderTheirStarter(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Basic", []string{"threads"}, runOpts{profiler: true})
		if r.ExitCode != 0 || !strings.Contains(r.Stdout, "threads 3,303,603,903") {
			t.Fatalf("exit %d, stdout %q\n%s", r.ExitCode, r.Stdout, r.Stderr)
		}
		all := byID(r.Spans)
		works := byName(r.Spans, "Basic.exe!Acme.Shop.Workers.Work(Int32 id)")
		if len(works) != 4 {
			t.Fatalf("%d Work spans, want 4:\n%s", len(works), dumpSpans(r.Spans))
		}
		mains := byName(r.Spans, "Basic.exe!Program.Main(String[] args)")
		if len(mains) != 1 {
			t.Fatalf("%d Main spans", len(mains))
		}
		threadIDs := map[any]bool{mains[0].Attrs["thread.id"]: true}
		traceIDs := map[string]bool{mains[0].TraceID: true}
		for _, w := range works {
			threadIDs[w.Attrs["thread.id"]] = true
			traceIDs[w.TraceID] = true
			// The thread's entry lambda is the first span on its thread,
			// named after the method that holds it, Work is under it, and
			// it is under the method that made its closure and started
			// the thread (work queued from traced code, see
			// asyncspans_test.go; the closure's constructor is no span),
			// in Main's trace.
			p, ok := all[w.ParentSpanID]
			c, okc := all[p.ParentSpanID]
			compiled, _ := p.Attrs["dotnet.method.compiled_name"].(string)
			if !ok || !okc || !strings.Contains(p.Name, "Program.Threads()::lambda#") || !strings.Contains(compiled, "<Threads>") ||
				!strings.HasSuffix(c.Name, "Program.Threads()") || p.Attrs["thread.id"] == c.Attrs["thread.id"] {
				t.Errorf("Work's parent: %q, its parent %q", p.Name, c.Name)
			}
			steps := 0
			for _, s := range r.Spans {
				if s.ParentSpanID == w.SpanID {
					steps++
					if s.Name != "Basic.exe!Acme.Shop.Workers.Step(Int32 id, Int32 i)" || s.Attrs["thread.id"] != w.Attrs["thread.id"] {
						t.Errorf("child of Work: %s on thread %v", s.Name, s.Attrs["thread.id"])
					}
				}
			}
			if steps != 3 {
				t.Errorf("Work has %d children, want 3", steps)
			}
		}
		if len(threadIDs) != 5 || len(traceIDs) != 1 {
			t.Errorf("%d thread ids and %d traces for main + 4 threads, want 5 threads in 1 trace", len(threadIDs), len(traceIDs))
		}
	})
}

// The traced app behaves exactly as without the profiler: same output (float
// and double arithmetic through eight xmm argument registers, caught
// NullReference and DivideByZero exceptions from hardware faults) and the
// same exit code.
func TestAppUnchangedByProfiler(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Basic", []string{"all", "3"}, runOpts{})
		traced := runApp(t, rt, "Basic", []string{"all", "3"}, runOpts{profiler: true})
		if plain.ExitCode != 3 || traced.ExitCode != 3 {
			t.Fatalf("exit codes: plain %d, traced %d, want 3\n%s", plain.ExitCode, traced.ExitCode, traced.Stderr)
		}
		if plain.Stdout != traced.Stdout {
			t.Fatalf("stdout differs\nplain:\n%s\ntraced:\n%s", plain.Stdout, traced.Stdout)
		}
		for _, want := range []string{"mix -16.979166666666664", "caught NullReferenceException", "caught DivideByZeroException"} {
			if !strings.Contains(traced.Stdout, want) {
				t.Errorf("stdout lacks %q:\n%s", want, traced.Stdout)
			}
		}
		if len(byName(traced.Spans, "Basic.exe!Acme.Shop.Numbers.Mix(Double a, Double b, Double c, Double d, Double e, Double f, Double g, Double h)")) != 51 {
			t.Errorf("Mix spans: %d, want 51", len(byName(traced.Spans, "Basic.exe!Acme.Shop.Numbers.Mix(Double a, Double b, Double c, Double d, Double e, Double f, Double g, Double h)")))
		}
	})
}

func TestCaughtHardwareFaultsCloseSpans(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Basic", []string{"faults"}, runOpts{profiler: true})
		if r.ExitCode != 0 {
			t.Fatalf("exit %d\n%s", r.ExitCode, r.Stderr)
		}
		all := byID(r.Spans)
		for _, c := range []struct{ thrower, catcher, exc string }{
			{"Basic.exe!Acme.Shop.Faults.Length(String s)", "Basic.exe!Acme.Shop.Faults.CatchNull()", "System.NullReferenceException"},
			{"Basic.exe!Acme.Shop.Faults.Divide(Int32 a, Int32 b)", "Basic.exe!Acme.Shop.Faults.CatchDivide(Int32 zero)", "System.DivideByZeroException"},
		} {
			throwers := byName(r.Spans, c.thrower)
			catchers := byName(r.Spans, c.catcher)
			if len(throwers) != 2 || len(catchers) != 2 {
				t.Fatalf("%d %s and %d %s spans, want 2 each:\n%s", len(throwers), c.thrower, len(catchers), c.catcher, dumpSpans(r.Spans))
			}
			for _, s := range throwers {
				if s.StatusCode != "error" {
					t.Errorf("%s: status %q, want error", c.thrower, s.StatusCode)
				}
				if ev := events(s, "exception"); len(ev) != 1 || ev[0].Attrs["exception.type"] != c.exc {
					t.Errorf("%s: exception events %v, want one %s", c.thrower, s.Events, c.exc)
				}
				if p := parentName(all, s); p != c.catcher {
					t.Errorf("%s: parent %q", c.thrower, p)
				}
			}
			for _, s := range catchers {
				if s.StatusCode == "error" {
					t.Errorf("%s caught the exception but is marked failed", c.catcher)
				}
				if p := parentName(all, s); p != "Basic.exe!Program.Faults()" {
					t.Errorf("%s: parent %q", c.catcher, p)
				}
			}
		}
	})
}

func TestIncludeExclude(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		t.Run("exclude", func(t *testing.T) {
			r := runApp(t, rt, "Basic", []string{"names"}, runOpts{profiler: true, env: map[string]string{
				"CLROTEL_EXCLUDE": "Acme.Shop.Cart.Put,*.Echo", "CLROTEL_LOG_LEVEL": "debug",
			}})
			for _, s := range r.Spans {
				if strings.Contains(s.Name, ".Put(") || strings.Contains(s.Name, ".Echo<") {
					t.Errorf("excluded method traced: %s", s.Name)
				}
			}
			// No hook either: the profiler never selected them at JIT time.
			for _, line := range strings.Split(r.Stderr, "\n") {
				if strings.Contains(line, "tracing ") && (strings.Contains(line, ".Put(") || strings.Contains(line, ".Echo<")) {
					t.Errorf("excluded method got hooks: %s", line)
				}
			}
			if len(byName(r.Spans, "Basic.exe!Acme.Shop.Cart.Add(Acme.Shop.Item item, Int32 quantity)")) != 1 {
				t.Errorf("Add missing:\n%s", dumpSpans(r.Spans))
			}
		})
		t.Run("include", func(t *testing.T) {
			r := runApp(t, rt, "Basic", []string{"names"}, runOpts{profiler: true, env: map[string]string{
				"CLROTEL_INCLUDE": "Acme.Shop.Cart.*",
			}})
			if len(r.Spans) == 0 {
				t.Fatal("no spans")
			}
			for _, s := range r.Spans {
				fn, _ := s.Attrs["code.function.name"].(string)
				if !strings.HasPrefix(fn, "Acme.Shop.Cart.") {
					t.Errorf("span outside the include: %s", s.Name)
				}
				if s.ParentSpanID != "" {
					t.Errorf("%s has a parent, but its callers are not traced", s.Name)
				}
			}
			if len(byName(r.Spans, "Basic.exe!Acme.Shop.Cart.Line.Note.Text(String s)")) != 1 {
				t.Errorf("nested type under the include missing:\n%s", dumpSpans(r.Spans))
			}
		})
	})
}

func TestDeepRecursionStaysNested(t *testing.T) {
	const depth = 10000
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Basic", []string{"recurse", "10000"}, runOpts{})
		r := runApp(t, rt, "Basic", []string{"recurse", "10000"}, runOpts{profiler: true})
		if !strings.Contains(r.Stdout, "depth 10000") || r.Stdout != plain.Stdout || r.ExitCode != plain.ExitCode {
			t.Fatalf("stdout %q exit %d, untraced %q exit %d\n%s", r.Stdout, r.ExitCode, plain.Stdout, plain.ExitCode, r.Stderr)
		}
		// A burst this deep can outrun the default ring (the hooks write
		// 10,000 enters in well under a millisecond, each reserving room
		// for its exit) and reaches the span budget of a trace: the deepest
		// calls fold into the innermost span kept (or are dropped, whole),
		// and are counted; what is kept nests exactly.
		rec := byName(r.Spans, "Basic.exe!Acme.Shop.Deep.Recurse(Int32 n)")
		dropped := 0
		if m := droppedTotalRE.FindAllStringSubmatch(r.Stderr, -1); len(m) > 0 {
			dropped, _ = strconv.Atoi(m[len(m)-1][1])
		}
		folded := foldedCalls(r.Spans)
		if len(rec)+dropped+folded != depth+1 || len(rec) < depth/2 {
			t.Fatalf("%d Recurse spans, %d folded and %d dropped, want %d in all (most kept)", len(rec), folded, dropped, depth+1)
		}
		t.Logf("%d levels kept, %d folded, %d dropped", len(rec), folded, dropped)
		// Follow the chain from the innermost call up: every Recurse span's
		// parent is another Recurse span, depth+1 levels, inside each other.
		all := byID(r.Spans)
		children := map[string]int{}
		for _, s := range rec {
			children[s.ParentSpanID]++
		}
		var leaf string
		for _, s := range rec {
			if children[s.SpanID] == 0 {
				if leaf != "" {
					t.Fatal("more than one innermost call")
				}
				leaf = s.SpanID
			}
		}
		n := 0
		for cur := all[leaf]; cur.Name == rec[0].Name; cur = all[cur.ParentSpanID] {
			p := all[cur.ParentSpanID]
			if p.Start.After(cur.Start) || p.End.Before(cur.End) {
				t.Fatalf("level %d not inside its parent", n)
			}
			n++
		}
		if n != len(rec) {
			t.Fatalf("chain of %d, want all %d kept levels", n, len(rec))
		}
	})
}

// fullyOptimized turns tiered compilation off: every method is compiled
// fully optimized, with inlining and tail calls, on its first call.
var fullyOptimized = map[string]string{"COMPlus_TieredCompilation": "0", "DOTNET_TieredCompilation": "0"}

// A selected method is never inlined away, even into code the JIT compiles
// fully optimized at once: every call yields its span.
func TestSelectedMethodsAreNotInlined(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		// Every call a span: the folding rule takes 250.
		env := map[string]string{"CLROTEL_FOLD": "off"}
		for k, v := range fullyOptimized {
			env[k] = v
		}
		r := runApp(t, rt, "Basic", []string{"inline"}, runOpts{profiler: true, env: env})
		if !strings.Contains(r.Stdout, "loop 1000") {
			t.Fatalf("stdout %q\n%s", r.Stdout, r.Stderr)
		}
		if n := len(byName(r.Spans, "Basic.exe!Acme.Shop.Tiny.Inc(Int32 x)")); n != 1000 {
			t.Fatalf("%d Inc spans, want 1000", n)
		}
	})
}

// Whether or not the JIT turns the call into a tail call, the callee is
// its caller's child and ends within it: a frame that leaves by a tail
// call stays until the traced callee that replaced it returns (the caller
// then ends as a tail call). The callee is named by a MethodDef, a
// MethodSpec, a MemberRef through a generic class's instantiation, or a
// MemberRef to another assembly's type.
func TestTailCallKeepsNesting(t *testing.T) {
	pairs := []struct{ outer, inner string }{
		{"Basic.exe!Acme.Shop.Tail.Outer(Int64 x)", "Basic.exe!Acme.Shop.Tail.Inner(Int64 x)"},
		{"Basic.exe!Acme.Shop.Tail.OuterSpec(Int64 x)", "Basic.exe!Acme.Shop.Tail.Same<String>(String v, Int64 x)"},
		{"Basic.exe!Acme.Shop.Tail.OuterGeneric(Int64 x)", "Basic.exe!Acme.Shop.Box<Int64>.Twice(Int64 x)"},
		{"Basic.exe!Acme.Shop.Tail.OuterOther(Int64 x)", "Geometry.dll!Geometry.Calc.Triple(Int64 x)"},
	}
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Basic", []string{"tail"}, runOpts{profiler: true, env: fullyOptimized})
		if !strings.Contains(r.Stdout, "tail 15") || !strings.Contains(r.Stdout, "tail other 15") {
			t.Fatalf("stdout %q\n%s", r.Stdout, r.Stderr)
		}
		for _, p := range pairs {
			outer, inner := byName(r.Spans, p.outer), byName(r.Spans, p.inner)
			if len(outer) != 1 || len(inner) != 1 {
				t.Errorf("%d %s, %d %s spans:\n%s", len(outer), p.outer, len(inner), p.inner, dumpSpans(r.Spans))
				continue
			}
			o, i := outer[0], inner[0]
			if i.ParentSpanID != o.SpanID || i.TraceID != o.TraceID || i.End.After(o.End) {
				t.Errorf("%s is not %s's child ending within it (end_reason %v)\n%s", p.inner, p.outer, o.Attrs["clrotel.end_reason"], dumpSpans(r.Spans))
			}
			if o.Attrs["clrotel.end_reason"] == "tailcall" {
				t.Logf("%s: the JIT made %s a tail call", rt.Name, p.outer)
			}
		}
		if len(byName(r.Spans, "Basic.exe!Program.Main(String[] args)")) != 1 {
			t.Error("Main span missing: the stack went out of step")
		}
	})
}

// With no collector listening the app must not wait for export at exit: the
// flush gives up at once and says so.
func TestNoCollectorDoesNotDelayExit(t *testing.T) {
	rt := runtimes[0]
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedPort := l.Addr().String()
	l.Close()
	start := time.Now()
	plain := runApp(t, rt, "Basic", []string{"names"}, runOpts{})
	plainTime := time.Since(start)
	start = time.Now()
	traced := runApp(t, rt, "Basic", []string{"names"}, runOpts{profilerNoSink: true, env: map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT": "http://" + closedPort,
	}})
	tracedTime := time.Since(start)
	if traced.ExitCode != 0 || traced.Stdout != plain.Stdout {
		t.Fatalf("exit %d, stdout %q", traced.ExitCode, traced.Stdout)
	}
	if !strings.Contains(traced.Stderr, "collector unreachable") {
		t.Errorf("no word about the unreachable collector:\n%s", traced.Stderr)
	}
	// The export budget at exit is 5 s; giving up at once keeps the run
	// within a second of the untraced one (JIT of everything included).
	if tracedTime > plainTime+1500*time.Millisecond {
		t.Errorf("traced run took %v, untraced %v", tracedTime, plainTime)
	}
}
