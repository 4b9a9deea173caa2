package e2e

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

// joinApp is one running Join.exe (tests/e2e/apps/Join.cs), traced,
// exporting to sink.
type joinApp struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr strings.Builder
}

func startJoin(t *testing.T, rt dotnetRuntime, sink *otlpsink.Sink, service string, env map[string]string, args ...string) *joinApp {
	t.Helper()
	exe := appPath(t, "Join", rt)
	cmd := exec.Command(rt.Host, append([]string{exe}, args...)...)
	cmd.Env = append(append(baseEnv(), exportEnv(sink, service)...), "CLROTEL_INCLUDE=Acme.Join.Work.*")
	cmd.Env = append(cmd.Env, settingsEnv(env, true)...)
	a := &joinApp{cmd: cmd, lines: make(chan string, 64)}
	cmd.Stderr = &a.stderr
	var err error
	if a.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			a.lines <- sc.Text()
		}
		close(a.lines)
	}()
	return a
}

// line waits for the app's next line of output.
func (a *joinApp) line(t *testing.T) string {
	t.Helper()
	select {
	case l, ok := <-a.lines:
		if !ok {
			t.Fatalf("the app ended early:\n%s", a.stderr.String())
		}
		return l
	case <-time.After(30 * time.Second):
		t.Fatalf("no output from the app in 30 s:\n%s", a.stderr.String())
	}
	return ""
}

func (a *joinApp) wait(t *testing.T) {
	t.Helper()
	a.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- a.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("app: %v\n%s", err, a.stderr.String())
		}
	case <-time.After(60 * time.Second):
		a.cmd.Process.Kill()
		t.Fatalf("app did not end\n%s", a.stderr.String())
	}
}

func randomHex(t *testing.T, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// caller is a request's incoming context: the trace and span a caller
// sends in traceparent.
type caller struct {
	trace, span string
	sampled     bool
}

func newCaller(t *testing.T, sampled bool) caller {
	return caller{trace: randomHex(t, 16), span: randomHex(t, 8), sampled: sampled}
}

func (c caller) traceparent() string {
	flags := "00"
	if c.sampled {
		flags = "01"
	}
	return "00-" + c.trace + "-" + c.span + "-" + flags
}

func inTrace(spans []otlpsink.Span, trace string) []otlpsink.Span {
	var out []otlpsink.Span
	for _, s := range spans {
		if s.TraceID == trace {
			out = append(out, s)
		}
	}
	return out
}

const activityName = "Acme.Join.HandleRequest"

// checkJoined checks one request's spans in one process: the Activity's
// span, child of the caller's span (want parent), and the request's method
// spans under it. It returns the Activity span.
func checkJoined(t *testing.T, spans []otlpsink.Span, trace, parent, service string) otlpsink.Span {
	t.Helper()
	var act, handle otlpsink.Span
	var steps, formats int
	var mine []otlpsink.Span
	for _, s := range inTrace(spans, trace) {
		if s.Resource["service.name"] == service {
			mine = append(mine, s)
		}
	}
	for _, s := range mine {
		switch {
		case s.Name == activityName:
			if act.SpanID != "" {
				t.Fatalf("two Activity spans in trace %s:\n%s", trace, dumpSpans(mine))
			}
			act = s
		case strings.Contains(s.Name, "Acme.Join.Work.Handle("):
			handle = s
		}
	}
	if act.SpanID == "" || handle.SpanID == "" {
		t.Fatalf("%s: trace %s: want the Activity's span and Handle's:\n%s", service, trace, dumpSpans(mine))
	}
	if act.ParentSpanID != parent {
		t.Errorf("%s: the Activity's span has parent %q, want the caller's span %s", service, act.ParentSpanID, parent)
	}
	if act.Attrs["dotnet.activity.operation_name"] != activityName {
		t.Errorf("%s: Activity span attributes %v", service, act.Attrs)
	}
	if handle.ParentSpanID != act.SpanID {
		t.Errorf("%s: Handle's parent is %q, want the Activity's span %s", service, handle.ParentSpanID, act.SpanID)
	}
	if act.Start.After(handle.Start) || act.End.Before(handle.End) {
		t.Errorf("%s: the Activity [%v, %v] does not hold Handle [%v, %v]", service, act.Start, act.End, handle.Start, handle.End)
	}
	// Handle's own calls (other Step calls, made elsewhere, are counted by
	// the caller with the trace's spans).
	for _, s := range mine {
		if s.ParentSpanID != handle.SpanID {
			continue
		}
		switch {
		case strings.Contains(s.Name, "Acme.Join.Work.Step("):
			steps++
		case strings.Contains(s.Name, "Acme.Join.Work.Format("):
			formats++
		}
	}
	if steps != 3 || formats != 1 {
		t.Errorf("%s: %d Step and %d Format spans under Handle, want 3 and 1:\n%s", service, steps, formats, dumpSpans(mine))
	}
	return act
}

// noMissingParent checks that every span of the trace has its parent in
// the trace, except the caller's span (root: the trace's root, the
// caller's own): one tree under the caller.
func noMissingParent(t *testing.T, spans []otlpsink.Span, trace, root string) {
	t.Helper()
	ids := map[string]bool{root: true}
	all := inTrace(spans, trace)
	for _, s := range all {
		ids[s.SpanID] = true
	}
	for _, s := range all {
		if !ids[s.ParentSpanID] {
			t.Errorf("trace %s: %s has parent %s, which no span of the trace is:\n%s", trace, s.Name, s.ParentSpanID, dumpSpans(all))
		}
	}
}

// TestJoinCallerTrace: each request's spans join the trace of the
// traceparent it came with, under the Activity the app started from it,
// and that Activity (which nothing in the app exports) gets a span whose
// parent is the caller's span. The samplers honour the caller's sampled
// flag the way their names say.
func TestJoinCallerTrace(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		for _, tc := range []struct {
			sampler             string
			keepUnsampledCaller bool
		}{
			{"", false}, // parentbased_always_on
			{"parentbased_always_off", false},
			{"always_on", true},
		} {
			t.Run("sampler="+tc.sampler, func(t *testing.T) {
				sink, err := otlpsink.Listen("127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				defer sink.Close()
				env := map[string]string{}
				if tc.sampler != "" {
					env["OTEL_TRACES_SAMPLER"] = tc.sampler
				}
				app := startJoin(t, rt, sink, "join", env, "stdin")
				// Plain requests, an unsampled caller, one with work on a
				// pool thread, one with many AsyncLocals set (an array-based
				// map), one with more (a Dictionary), one after compacting
				// collections.
				paths := []string{"/x", "/x", "/x", "/pool", "/many", "/dict", "/gc", "/async", "/x"}
				callers := []caller{newCaller(t, true), newCaller(t, true), newCaller(t, false), newCaller(t, true),
					newCaller(t, true), newCaller(t, true), newCaller(t, true), newCaller(t, true), newCaller(t, true)}
				printed := map[string]string{} // trace -> the Activity's span id, as the app printed it
				for i, c := range callers {
					fmt.Fprintf(app.stdin, "%s %s\n", paths[i], c.traceparent())
					f := strings.Fields(app.line(t))
					if len(f) < 3 || f[1] != c.trace {
						t.Fatalf("the app's Activity is not in the caller's trace: %q", f)
					}
					printed[c.trace] = f[2]
				}
				app.wait(t)
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				spans := sink.WaitIdle(ctx, 300*time.Millisecond)
				cancel()
				for i, c := range callers {
					got := inTrace(spans, c.trace)
					if !c.sampled && !tc.keepUnsampledCaller {
						if len(got) != 0 {
							t.Errorf("caller's trace %s is not sampled, yet %d spans joined it:\n%s", c.trace, len(got), dumpSpans(got))
						}
						continue
					}
					act := checkJoined(t, spans, c.trace, c.span, "join")
					if act.SpanID != printed[c.trace] {
						t.Errorf("the Activity's span id is %s, the app's Activity.SpanId %s", act.SpanID, printed[c.trace])
					}
					noMissingParent(t, spans, c.trace, c.span)
					want := 6 // Activity, Handle, 3 Step, Format
					if paths[i] == "/pool" {
						// The pool thread's root joins the Activity that
						// flowed to it with the ExecutionContext.
						want++
						pooled := 0
						for _, s := range got {
							if strings.Contains(s.Name, "Acme.Join.Work.Pooled(") {
								pooled++
								if s.ParentSpanID != act.SpanID {
									t.Errorf("the pool thread's root has parent %q, want the Activity's span %s", s.ParentSpanID, act.SpanID)
								}
							}
						}
						if pooled != 1 {
							t.Errorf("%d Pooled spans in the caller's trace, want 1", pooled)
						}
					}
					if paths[i] == "/async" {
						// The async method's span (a joined root) lasts until
						// its task completes; its resumes' calls nest under it.
						want += 3
						var async otlpsink.Span
						for _, s := range got {
							if strings.Contains(s.Name, "Acme.Join.Work.HandleAsync(") {
								async = s
							}
						}
						under := 0
						for _, s := range got {
							if strings.Contains(s.Name, "Acme.Join.Work.Step(") && s.ParentSpanID == async.SpanID {
								under++
							}
						}
						if async.SpanID == "" || async.ParentSpanID != act.SpanID || async.Duration() < 9*time.Millisecond || under != 2 {
							t.Errorf("async root: %q parent %q (Activity %s), lasted %v, %d Step under it (want 2)",
								async.Name, async.ParentSpanID, act.SpanID, async.Duration(), under)
						}
					}
					if len(got) != want {
						t.Errorf("%s: trace %s: %d spans, want %d:\n%s", paths[i], c.trace, len(got), want, dumpSpans(got))
					}
				}
				// A request with no traceparent: on .NET 8 the Activity is
				// a local root with W3C ids and Recorded false (no listener
				// sampled it), which decides nothing: the sampler decides
				// as for a root, on the Activity's trace id. On .NET Core
				// 3.1 its id is hierarchical: nothing to join.
				app = startJoin(t, rt, sink, "join-local", env, "stdin")
				fmt.Fprintf(app.stdin, "/x\n")
				f := strings.Fields(app.line(t))
				app.wait(t)
				ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
				spans = sink.WaitIdle(ctx, 300*time.Millisecond)
				cancel()
				var local []otlpsink.Span
				for _, s := range spans {
					if s.Resource["service.name"] == "join-local" {
						local = append(local, s)
					}
				}
				switch {
				case tc.sampler == "parentbased_always_off":
					if len(local) != 0 {
						t.Errorf("no caller, root sampler off: %d spans:\n%s", len(local), dumpSpans(local))
					}
				case f[1] == strings.Repeat("0", 32): // hierarchical
					if len(local) != 5 || len(byName(local, activityName)) != 0 {
						t.Errorf("no caller (hierarchical Activity): want Handle's own trace, 5 spans:\n%s", dumpSpans(local))
					}
					for _, s := range local {
						if strings.Contains(s.Name, ".Handle(") && s.ParentSpanID != "" {
							t.Errorf("Handle has parent %s with nothing to join", s.ParentSpanID)
						}
					}
				default:
					act := checkJoined(t, local, f[1], "", "join-local")
					if act.SpanID != f[2] {
						t.Errorf("local root Activity's span id %s, the app's %s", act.SpanID, f[2])
					}
					if len(local) != 6 {
						t.Errorf("no caller: %d spans, want 6:\n%s", len(local), dumpSpans(local))
					}
				}
				if t.Failed() {
					t.Logf("all spans:\n%s", dumpSpans(spans))
				}
			})
		}
	})
}

func joinPort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func httpGet(t *testing.T, url, traceparent string) string {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if traceparent != "" {
		req.Header.Set("traceparent", traceparent)
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestJoinAcrossProcesses: a request to service A (HttpListener) that calls
// service B through HttpClient gives one trace across both processes, with
// no missing parent: B's Activity is a child of the span A's HttpClient
// named in traceparent, which A exported. .NET Core 3.1's HttpListener and
// HttpClient need OpenSSL 1.0 or 1.1 ("No usable version of libssl was
// found", then abort), and Debian has only OpenSSL 3: `make deps` puts a
// 1.1 (from a PyPI wheel that bundles it) in .deps/openssl11.
func TestJoinAcrossProcesses(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		var env map[string]string
		if rt.Name == "net3.1" {
			dir := filepath.Join(repoRoot, ".deps", "openssl11")
			if _, err := os.Stat(filepath.Join(dir, "libssl.so.1.1")); err != nil {
				t.Fatalf("no OpenSSL 1.1 for .NET Core 3.1's HttpListener (run `make deps`): %v", err)
			}
			env = map[string]string{"LD_LIBRARY_PATH": dir}
		}
		sink, err := otlpsink.Listen("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer sink.Close()
		pa, pb := joinPort(t), joinPort(t)
		b := startJoin(t, rt, sink, "join-b", env, fmt.Sprint(pb))
		b.line(t) // listening
		a := startJoin(t, rt, sink, "join-a", env, fmt.Sprint(pa), fmt.Sprint(pb))
		a.line(t)
		callers := []caller{newCaller(t, true), newCaller(t, true)}
		for _, c := range callers {
			body := httpGet(t, fmt.Sprintf("http://127.0.0.1:%d/chain", pa), c.traceparent())
			if !strings.HasPrefix(body, c.trace+" ") || !strings.Contains(body, "below="+c.trace+" ") {
				t.Fatalf("the services' Activities are not in the caller's trace: %q", body)
			}
		}
		httpGet(t, fmt.Sprintf("http://127.0.0.1:%d/quit", pa), "")
		httpGet(t, fmt.Sprintf("http://127.0.0.1:%d/quit", pb), "")
		a.wait(t)
		b.wait(t)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		spans := sink.WaitIdle(ctx, 300*time.Millisecond)
		cancel()
		for _, c := range callers {
			actA := checkJoined(t, spans, c.trace, c.span, "join-a")
			// B's Activity's parent is what A's HttpClient sent: a span A
			// exported (A's Activity, or HttpClient's own Activity when
			// it creates one), in the same trace.
			var parentB string
			for _, s := range inTrace(spans, c.trace) {
				if s.Name == activityName && s.Resource["service.name"] == "join-b" {
					parentB = s.ParentSpanID
				}
			}
			if parentB == "" {
				t.Fatalf("trace %s: no Activity span from service B:\n%s", c.trace, dumpSpans(inTrace(spans, c.trace)))
			}
			var fromA bool
			for _, s := range inTrace(spans, c.trace) {
				if s.SpanID != parentB || s.Resource["service.name"] != "join-a" {
					continue
				}
				fromA = true
				// HttpClient's own Activity (.NET 8 makes one whenever an
				// Activity is current) is a child of the request's.
				if s.SpanID != actA.SpanID && s.ParentSpanID != actA.SpanID {
					t.Errorf("the span A's traceparent named (%s) has parent %s, want A's Activity %s", s.Name, s.ParentSpanID, actA.SpanID)
				}
			}
			if !fromA {
				t.Errorf("B's Activity has parent %s, not a span of A (A's Activity is %s)", parentB, actA.SpanID)
			}
			checkJoined(t, spans, c.trace, parentB, "join-b")
			noMissingParent(t, spans, c.trace, c.span)
		}
		if t.Failed() || testing.Verbose() {
			t.Logf("all spans:\n%s", dumpSpans(spans))
		}
	})
}
