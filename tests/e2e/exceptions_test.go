package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/otlpsink"
)

func events(s otlpsink.Span, name string) []otlpsink.Event {
	var out []otlpsink.Event
	for _, e := range s.Events {
		if e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// checkFailed asserts that s ended by the exception: status error with the
// type and message, an exception event, end reason "exception".
func checkFailed(t *testing.T, s otlpsink.Span, typ, msg string) {
	t.Helper()
	if s.StatusCode != "error" || s.StatusMsg != typ+": "+msg {
		t.Errorf("%s: status %s %q, want error %q", s.Name, s.StatusCode, s.StatusMsg, typ+": "+msg)
	}
	ev := events(s, "exception")
	if len(ev) != 1 {
		t.Fatalf("%s: %d exception events, want 1", s.Name, len(ev))
	}
	if ev[0].Attrs["exception.type"] != typ || ev[0].Attrs["exception.message"] != msg {
		t.Errorf("%s: event %v", s.Name, ev[0].Attrs)
	}
	if s.Attrs["clrotel.end_reason"] != "exception" {
		t.Errorf("%s: end reason %v", s.Name, s.Attrs["clrotel.end_reason"])
	}
}

// checkCaught asserts that s caught the exception and is not failed.
func checkCaught(t *testing.T, s otlpsink.Span, typ string) {
	t.Helper()
	if s.StatusCode == "error" {
		t.Errorf("%s: status %s: the catcher must not fail", s.Name, s.StatusCode)
	}
	c := events(s, "exception.caught")
	if len(c) == 0 || c[len(c)-1].Attrs["exception.type"] != typ {
		t.Errorf("%s: exception.caught events %v, want one for %s", s.Name, c, typ)
	}
}

func TestExceptions(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Exceptions", nil, runOpts{profiler: true})
		want := "levels -1\ncaught CardDeclinedException\nquiet caught\ninner not a number: x\nrethrown first\nfinally ran 1\nfiltered\ncannot open String\ntask in a task\nframework threw\n"
		if r.ExitCode != 0 || r.Stdout != want {
			t.Fatalf("exit %d, stdout %q\n%s", r.ExitCode, r.Stdout, r.Stderr)
		}
		all := byID(r.Spans)
		get := func(part string) otlpsink.Span { return one(t, r.Spans, part) }

		t.Run("three levels, caught at the top", func(t *testing.T) {
			top, mid, bot := get("Levels.Top("), get("Levels.Middle("), get("Levels.Bottom(")
			checkFailed(t, bot, "System.InvalidOperationException", "boom at the bottom")
			checkFailed(t, mid, "System.InvalidOperationException", "boom at the bottom")
			checkCaught(t, top, "System.InvalidOperationException")
			if parentName(all, bot) != mid.Name || parentName(all, mid) != top.Name {
				t.Error("nesting broken")
			}
			// Unwound spans end when their frame is unwound: inner first, and
			// before the catcher ends.
			if bot.End.After(mid.End) || mid.End.After(top.End) || bot.End.Before(bot.Start) {
				t.Errorf("end times: bottom %v middle %v top %v", bot.End, mid.End, top.End)
			}
			ev := events(bot, "exception")[0]
			st, _ := ev.Attrs["exception.stacktrace"].(string)
			wantStack := "   at Acme.Errors.Levels.Bottom()\n   at Acme.Errors.Levels.Middle()\n   at Acme.Errors.Levels.Top()\n   at Program.Main(String[] args)"
			if st != wantStack {
				t.Errorf("stack trace:\n%s\nwant:\n%s", st, wantStack)
			}
		})
		t.Run("custom exception several levels down", func(t *testing.T) {
			checkFailed(t, get("Custom.Charge("), "Acme.Errors.CardDeclinedException", "card 4000 declined")
			checkCaught(t, get("Custom.Catch("), "Acme.Errors.CardDeclinedException")
		})
		t.Run("null message", func(t *testing.T) {
			s := get("Custom.Silent(")
			ev := events(s, "exception")
			if len(ev) != 1 || ev[0].Attrs["exception.type"] != "Acme.Errors.Quiet" || ev[0].Attrs["dotnet.exception.message_null"] != true {
				t.Fatalf("events %v", s.Events)
			}
			if _, ok := ev[0].Attrs["exception.message"]; ok {
				t.Error("a null message was reported as a message")
			}
			if s.StatusCode != "error" || s.StatusMsg != "Acme.Errors.Quiet" {
				t.Errorf("status %s %q", s.StatusCode, s.StatusMsg)
			}
		})
		t.Run("inner exception", func(t *testing.T) {
			// Wrap catches the FormatException and throws a new exception
			// around it: caught, then failed by the new one.
			w := get("Custom.Wrap(")
			if c := events(w, "exception.caught"); len(c) != 1 || c[0].Attrs["exception.type"] != "System.FormatException" {
				t.Errorf("Wrap's caught events %v", c)
			}
			if w.StatusCode != "error" || w.StatusMsg != "System.InvalidOperationException: wrapped" {
				t.Errorf("Wrap status %s %q", w.StatusCode, w.StatusMsg)
			}
			ev := events(w, "exception")
			if len(ev) != 1 || ev[0].Attrs["dotnet.exception.inner.type"] != "System.FormatException" || ev[0].Attrs["dotnet.exception.inner.message"] != "not a number: x" {
				t.Errorf("events %v", w.Events)
			}
			checkFailed(t, get("Custom.Parse("), "System.FormatException", "not a number: x")
			checkCaught(t, get("Custom.CatchInner("), "System.InvalidOperationException")
		})
		t.Run("rethrow", func(t *testing.T) {
			again := get("Flow.Again(") // caught, then rethrew
			if c := events(again, "exception.caught"); len(c) != 1 || c[0].Attrs["exception.type"] != "System.ArgumentException" {
				t.Errorf("Again's caught events %v", c)
			}
			if again.StatusCode != "error" || len(events(again, "exception")) != 1 {
				t.Errorf("Again rethrew: status %s events %v", again.StatusCode, again.Events)
			}
			checkFailed(t, get("Flow.Fail("), "System.ArgumentException", "first")
			checkCaught(t, get("Flow.Rethrow("), "System.ArgumentException")
		})
		t.Run("finally and filter", func(t *testing.T) {
			checkFailed(t, get("Flow.WithFinally("), "System.TimeoutException", "too slow")
			c := get("Flow.Cleanup(")
			if c.StatusCode == "error" || parentName(all, c) != get("Flow.WithFinally(").Name {
				t.Errorf("finally block's call: status %s parent %q", c.StatusCode, parentName(all, c))
			}
			checkFailed(t, get("Flow.Code("), "System.ApplicationException", "code 404")
			checkCaught(t, get("Flow.Filter("), "System.ApplicationException")
			if f := get("Flow.IsNotFound("); f.StatusCode == "error" {
				t.Error("the filter's call failed")
			}
		})
		t.Run("generic method", func(t *testing.T) {
			checkFailed(t, get("Box<String>.Open<Int32>("), "System.NotSupportedException", "cannot open String")
			checkCaught(t, get("Box<String>.Try("), "System.NotSupportedException")
		})
		t.Run("a task faults on another thread", func(t *testing.T) {
			faulty, fault := get("Tasks.Faulty("), get("Tasks.Fault(")
			checkFailed(t, faulty, "System.InvalidOperationException", "in a task")
			// On a pool thread, in the caller's trace (workitems.c: the
			// task's item carries the span that queued it).
			if faulty.Attrs["thread.id"] == fault.Attrs["thread.id"] || faulty.TraceID != fault.TraceID {
				t.Errorf("the task ran on thread %v (caller %v), trace %s (caller %s): want another thread, the same trace",
					faulty.Attrs["thread.id"], fault.Attrs["thread.id"], faulty.TraceID, fault.TraceID)
			}
			checkCaught(t, fault, "System.AggregateException")
		})
		t.Run("thrown and caught in framework code", func(t *testing.T) {
			f := get("Tasks.Framework(")
			checkCaught(t, f, "System.FormatException")
			if ev := events(f, "exception"); len(ev) != 1 || ev[0].Attrs["exception.type"] != "System.FormatException" {
				t.Errorf("events %v", f.Events)
			}
		})
		main := get("Program.Main(")
		if main.StatusCode == "error" || len(main.Events) != 0 {
			t.Errorf("Main: status %s events %v", main.StatusCode, main.Events)
		}
	})
}

// An unhandled exception ends the process (abort): what was recorded is
// exported first, and the exit code is the runtime's own.
func TestUnhandledException(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Exceptions", []string{"unhandled"}, runOpts{})
		traced := runApp(t, rt, "Exceptions", []string{"unhandled"}, runOpts{profiler: true})
		if plain.ExitCode == 0 || traced.ExitCode != plain.ExitCode || traced.Stdout != plain.Stdout {
			t.Fatalf("exit codes: plain %d, traced %d; stdout %q vs %q", plain.ExitCode, traced.ExitCode, plain.Stdout, traced.Stdout)
		}
		for _, part := range []string{"Program.Main(", "Unhandled.Outer(", "Unhandled.Inner("} {
			s := one(t, traced.Spans, part)
			if s.StatusCode != "error" || !strings.Contains(s.StatusMsg, "System.InvalidProgramException: nobody catches this") {
				t.Errorf("%s: status %s %q", s.Name, s.StatusCode, s.StatusMsg)
			}
			if len(events(s, "exception")) != 1 {
				t.Errorf("%s: events %v", s.Name, s.Events)
			}
		}
	})
}

// Exceptions thrown and caught from 4 threads at a high rate: every span
// arrives, correctly nested, with the right status.
func TestExceptionStress(t *testing.T) {
	const each = 2500
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		// Folding off: every one of these calls is to be a span (with the
		// defaults Throw and Catch fold after 250 calls each), with its
		// values (5,000 spans a thread: past the value budget).
		r := runApp(t, rt, "Exceptions", []string{"stress", "2500"}, runOpts{profiler: true, env: map[string]string{"CLROTEL_FOLD": "off", "CLROTEL_MAX_VALUE_SPANS_PER_TRACE": "0"}})
		if !strings.Contains(r.Stdout, "caught 10000") {
			t.Fatalf("stdout %q\n%s", r.Stdout, r.Stderr)
		}
		all := byID(r.Spans)
		throws := byName(r.Spans, "Exceptions.exe!Acme.Errors.Stress.Throw(Int32 i)")
		catches := byName(r.Spans, "Exceptions.exe!Acme.Errors.Stress.Catch(Int32 i)")
		if len(throws) != 4*each || len(catches) != 4*each {
			t.Fatalf("%d Throw and %d Catch spans, want %d each", len(throws), len(catches), 4*each)
		}
		for _, s := range throws {
			p := all[s.ParentSpanID]
			if s.StatusCode != "error" || p.Name != catches[0].Name || p.Attrs["thread.id"] != s.Attrs["thread.id"] {
				t.Fatalf("Throw span: status %s, parent %q", s.StatusCode, p.Name)
			}
			if p.Attrs["dotnet.arg.i"] != s.Attrs["dotnet.arg.i"] {
				t.Fatalf("Throw(%v) under Catch(%v)", s.Attrs["dotnet.arg.i"], p.Attrs["dotnet.arg.i"])
			}
		}
		for _, s := range catches {
			if s.StatusCode == "error" || len(events(s, "exception.caught")) != 1 {
				t.Fatalf("Catch span: status %s events %d", s.StatusCode, len(s.Events))
			}
		}
	})
}

// Exceptions thrown at 10,000/s for 3 s: the app keeps its pace and output,
// every Throw span carries its exception and fails, every Catch span
// records the catch, and every call is exported or counted as dropped.
func TestExceptionRate(t *testing.T) {
	const perSecond, seconds = 10000, 3
	args := []string{"rate", strconv.Itoa(perSecond), strconv.Itoa(seconds)}
	rateRE := regexp.MustCompile(`rate (\d+)`)
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Exceptions", args, runOpts{})
		r := runApp(t, rt, "Exceptions", args, runOpts{profiler: true, env: map[string]string{
			"CLROTEL_INCLUDE": "Acme.Errors.Stress.*", "CLROTEL_LOG_LEVEL": "info",
		}})
		if r.ExitCode != 0 || r.Stdout != plain.Stdout {
			t.Fatalf("exit %d stdout %q, untraced %q\n%s", r.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
		}
		rate := func(s string) int {
			m := rateRE.FindStringSubmatch(s)
			if m == nil {
				t.Fatalf("no rate in %q", s)
			}
			v, _ := strconv.Atoi(m[1])
			return v
		}
		// The pace is make bench's to measure, not a test's: logged only.
		traced, untraced := rate(r.Stderr), rate(plain.Stderr)
		t.Logf("exceptions per second: traced %d, untraced %d; wall %v vs %v", traced, untraced, r.Wall, plain.Wall)
		// An exception or catch record that found the ring full is counted
		// in the exit log; every other Throw span has its exception and
		// fails, every Catch span its catch.
		lost := 0
		if m := regexp.MustCompile(`(\d+) exception, catch or Activity records not recorded`).FindStringSubmatch(r.Stderr); m != nil {
			lost, _ = strconv.Atoi(m[1])
		}
		missing := 0
		throws := byName(r.Spans, "Exceptions.exe!Acme.Errors.Stress.Throw(Int32 i)")
		catches := byName(r.Spans, "Exceptions.exe!Acme.Errors.Stress.Catch(Int32 i)")
		for _, s := range throws {
			if s.StatusCode != "error" {
				t.Fatalf("Throw span: status %s, %d events", s.StatusCode, len(s.Events))
			}
			if len(events(s, "exception")) != 1 {
				missing++
			}
		}
		for _, s := range catches {
			if s.StatusCode == "error" {
				t.Fatalf("Catch span: status %s, %d events", s.StatusCode, len(s.Events))
			}
			if len(events(s, "exception.caught")) != 1 {
				missing++
			}
		}
		if missing > lost {
			t.Errorf("%d Throw or Catch spans miss their event, %d records counted as not recorded", missing, lost)
		}
		a := readAccount(t, r.Stderr)
		if calls := 2 * perSecond * seconds; a.total() != calls || a.exported != len(r.Spans) {
			t.Errorf("%d calls; profiler %+v; received %d", calls, a, len(r.Spans))
		}
	})
}

// With rings too small for every record (and no burst space), the exception and catch records
// that find no room are counted apart from calls: every call is still
// accounted for exactly once (generator seed 300189 counted them as
// dropped calls, more calls with capture on than off).
func TestExceptionRecordsAreNotCalls(t *testing.T) {
	const perSecond, seconds = 5000, 1
	args := []string{"rate", strconv.Itoa(perSecond), strconv.Itoa(seconds)}
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Exceptions", args, runOpts{profiler: true, env: map[string]string{
			"CLROTEL_INCLUDE": "Acme.Errors.Stress.*", "CLROTEL_LOG_LEVEL": "info", "CLROTEL_RING_KB": "4", "CLROTEL_RING_BURST_KB": "0",
		}})
		if r.ExitCode != 0 {
			t.Fatalf("exit %d\n%s", r.ExitCode, r.Stderr)
		}
		a := readAccount(t, r.Stderr)
		if calls := 2 * perSecond * seconds; a.total() != calls || a.exported != len(r.Spans) {
			t.Errorf("%d calls; profiler %+v; received %d", calls, a, len(r.Spans))
		}
		if !strings.Contains(r.Stderr, "exception, catch or Activity records not recorded") {
			t.Errorf("no exception record was lost: the test did not fill the rings\n%s", r.Stderr)
		}
	})
}
