package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

// servingShape is one shape of long-running service in Serving.exe
// (tests/e2e/apps/Serving.cs).
type servingShape struct {
	name    string
	http    bool     // the test sends the requests; else the app makes its work
	args    []string // after the shape; HTTP shapes get the port
	handler string   // the handler's span name, from the class on
	// chains lists the traces one request may make, by the spans above
	// the handler, root first, as fragments of their names. The trace
	// holds those, the handler and its two children (none for a leaf),
	// and nothing else.
	chains [][]string
	leaf   bool // the handler calls no traced method
	remote bool // each request carries a traceparent the handler joins
	// first: the loop is its thread's outermost frame and calls the
	// handler itself, so that its first requests, made before it serves,
	// are checked too (a first-requests run).
	first bool
}

const (
	servingHandle      = "Acme.Serving.Handler.Handle("
	servingHandleAsync = "Acme.Serving.Handler.HandleAsync("
	servingLoad        = 20 * time.Second
	servingRate        = 500 // HTTP requests per second: steady, well short of saturating 2 cores
	servingConns       = 4
	// servingWarmup is the quiet time between the app's ready line and the
	// first request: longer than CLROTEL_SERVING_AFTER_MS's default (1 s),
	// so every loop already serves when work comes. The first-requests
	// runs have none: their work comes before any loop is known to serve.
	servingWarmup = 1500 * time.Millisecond
	// servingFirstLoad is the load of a first-requests run: past the time
	// and the calls that make a loop serve, several times over.
	servingFirstLoad = 5 * time.Second
	// servingSettle bounds the wait after the load for the last batches:
	// they come within a batch delay (OTEL_BSP_SCHEDULE_DELAY=100) of the
	// drainer reaching them, which a loaded machine delays; the spans
	// received while the service runs are read once no more have come for
	// servingQuiet.
	servingSettle = 20 * time.Second
	servingQuiet  = 500 * time.Millisecond
)

var servingShapes = []servingShape{
	// Four threads, each a GetContext loop calling Handle.
	{name: "thread-loop", http: true, handler: servingHandle, chains: [][]string{{}}, first: true},
	// An accept loop queuing each request in a lambda that captures it.
	// The closure the loop makes per request is no span: the queued work
	// begins the request's trace at the lambda (4 spans), linked to the
	// loop; or the lambda tail-calls Serve, which calls the handler (5);
	// or the loop queues ServeQueued, given the request, which CoreLib's
	// run, once optimized, jumps to (4).
	{name: "pool", http: true, handler: servingHandle, chains: [][]string{
		{"Acme.Serving.Pool.AcceptLoop()::lambda#"},
		{"Acme.Serving.Pool.AcceptLoop()::lambda#", "Acme.Serving.Pool.Serve("},
		{"Acme.Serving.Pool.ServeQueued("},
	}},
	// An async accept loop starting HandleAsync per request.
	{name: "async", http: true, handler: servingHandleAsync, chains: [][]string{{}}},
	// A consumer thread handling what a paced producer thread queues.
	{name: "queue", args: []string{"500"}, handler: servingHandle, chains: [][]string{{}}, first: true},
	// A Timer's ticks run OnTick, which calls Handle (4 spans); an async
	// Task.Delay loop calls Handle itself (3).
	{name: "timer", handler: servingHandle, chains: [][]string{{}, {"Acme.Serving.Ticker.OnTick("}}},
	// thread-loop with each request under an Activity started from the
	// test's traceparent: the Activity's span (child of the test's span),
	// the handler under it.
	{name: "activity", http: true, handler: servingHandle, remote: true, chains: [][]string{{"Acme.Serving.Request"}}},
}

// TestServing: a long-running service gives one trace per request, sent
// while it runs. Each shape of Serving.exe (a loop per thread, an accept
// loop queuing to the pool, an async accept loop, a queue consumer,
// timers, requests joining a caller's trace) serves paced load for 20 s
// with everything in its namespace traced, Main and the loops included,
// every call short to the fold rule, and no CPU budget. Judged on the
// spans received before the service is told to quit: a handler span per
// request; each in a trace of its own request's spans, rooted at the
// request (linked to what it came from); next to no span waiting for a
// parent that would come only at exit; the handler spans still coming in
// the last third. Then pool again, faster, with the default CPU budget:
// every request is a trace received or one counted as shed.
func TestServing(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		for _, sh := range servingShapes {
			sh := sh
			t.Run(sh.name, func(t *testing.T) {
				r := runServing(t, rt, sh, servingOpts{rate: servingRate, conns: servingConns, load: servingLoad})
				checkServing(t, sh, r)
			})
		}
		// The first requests: work from the moment the app is ready, so that
		// a loop's first calls end before it is known to serve. Each is a
		// trace of its own all the same, linked to the loop.
		for _, sh := range servingShapes {
			if !sh.first {
				continue
			}
			sh := sh
			t.Run(sh.name+"-first", func(t *testing.T) {
				r := runServing(t, rt, sh, servingOpts{rate: servingRate, conns: servingConns, load: servingFirstLoad, noWarmup: true})
				checkServing(t, sh, r)
			})
		}
		// Fast enough that the default budget sheds some traces here.
		t.Run("pool-shed", func(t *testing.T) {
			sh := servingShapes[1]
			r := runServing(t, rt, sh, servingOpts{env: map[string]string{cpuBudgetEnv: defaultCPUPercent}, rate: 4000, conns: 8, load: 10 * time.Second})
			checkShed(t, sh, r)
		})
	})
}

// TestServingUnexportedLoops: whether a call or work begins a trace of its
// own does not depend on whether the trace it began under is exported.
// With Main's traces never sampled (a ratio sampler's odds, or a shed
// trace's, made certain by a sampling rule), the loops, thread bodies and
// timers Main starts are in no exported trace, and still serve: each
// request is a trace of its own, sampled on its own (the defaults:
// always), rooted as with Main recorded, linked to nothing. Each shape
// that Main starts serves paced load for 5 s, judged as TestServing's
// runs are.
func TestServingUnexportedLoops(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		for _, sh := range servingShapes {
			if sh.remote {
				continue // each request joins its caller's trace: no root of its own
			}
			sh := sh
			t.Run(sh.name, func(t *testing.T) {
				env := map[string]string{"CLROTEL_SAMPLING_RULES": "Acme.Serving.Program.Main=never"}
				r := runServing(t, rt, sh, servingOpts{env: env, rate: servingRate, conns: servingConns, load: servingFirstLoad, unexported: true})
				checkServing(t, sh, r)
				if mains := byNameFragment(r.all, "Acme.Serving.Program.Main("); len(mains) != 0 {
					t.Errorf("Main's trace, never sampled, was exported: %s", spanLine(mains[0]))
				}
			})
		}
	})
}

// servingLeafShape is the queue shape with a leaf handler, Handler.Count:
// tiny, calling no traced method, and as hot as a busy consumer's (the
// producer queues servingLeafRate messages a second). No fold exemption
// covers it.
var servingLeafShape = servingShape{
	name: "queue-leaf", args: []string{strconv.Itoa(servingLeafRate)},
	handler: "Acme.Serving.Handler.Count(", chains: [][]string{{}}, leaf: true,
}

const (
	servingLeafRate = 20000
	servingLeafLoad = 8 * time.Second
)

// TestServingLeaf: folding never takes a request away, even when the
// request's handler is a leaf, the shape the fold rule would most like to
// take from a loop that calls it back to back (a CPU-bound Main's getters
// look the same). A consumer handles 20,000 messages a second with Count
// for 8 s, with the defaults, CPU budget included: every message is a
// handler trace received or a trace counted as shed; each handler span is
// its own trace, linked to the loop; they still come in the last third.
// There is no run with the budget off asking for a span per message: at
// this rate a loaded machine fills the capture buffers, which then shed
// whole traces, counted, so only the accounting holds whatever the load.
func TestServingLeaf(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		sh := servingLeafShape
		r := runServing(t, rt, sh, servingOpts{env: map[string]string{cpuBudgetEnv: defaultCPUPercent}, rate: servingLeafRate, load: servingLeafLoad})
		checkShed(t, sh, r)
		checkRequestTraces(t, sh, r)
	})
}

// settledSpans returns the spans received once their number has not
// changed for quiet, or after max: exports may go on without spans (a timer
// shape's ticks after its work stopped).
func settledSpans(sink *otlpsink.Sink, quiet, max time.Duration) []otlpsink.Span {
	deadline := time.Now().Add(max)
	n, since := sink.Count(), time.Now()
	for time.Since(since) < quiet && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		if c := sink.Count(); c != n {
			n, since = c, time.Now()
		}
	}
	return sink.Spans()
}

type servingOpts struct {
	env   map[string]string // besides the selection and the log level
	rate  int               // HTTP requests per second
	conns int               // HTTP keep-alive connections
	load  time.Duration
	// noWarmup: the work begins as soon as the app is ready.
	noWarmup bool
	// unexported: Main's trace is not sampled (nor, with it, the loops'):
	// the requests' traces link to nothing.
	unexported bool
}

// servingRun is what one traced run of a shape gave.
type servingRun struct {
	runtime string
	running []otlpsink.Span // received while the service ran, in arrival order
	thirds  [2]int          // how many of them had arrived at 1/3 and 2/3 of the load
	all     []otlpsink.Span // received by the end
	handled int             // requests answered (HTTP), else work the app said it handled
	served  int             // the app's count at exit
	callers map[int64]caller
	stderr  string
	elapsed time.Duration
	// unlinked: the loops' traces are not exported (servingOpts.unexported).
	unlinked bool
}

// servingEnv selects what a traced Serving.exe traces, with every call
// short to the fold rule (a second is the most it allows): the handler
// and its two calls, each called once in each request's trace, keep their
// spans however fast the machine, as any method called once in each
// request's trace must.
func servingEnv() map[string]string {
	return map[string]string{
		"CLROTEL_INCLUDE":     "Acme.Serving.*",
		"CLROTEL_FOLD_MAX_US": "1000000",
	}
}

// runServing runs one shape traced: ready, a quiet warm-up, o.load of
// work, a settle for the last exports, the spans received so far, then
// quit and the rest.
func runServing(t *testing.T, rt dotnetRuntime, sh servingShape, o servingOpts) servingRun {
	t.Helper()
	start := time.Now()
	sink, err := otlpsink.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	env := servingEnv()
	env["CLROTEL_LOG_LEVEL"] = "info"
	for k, v := range o.env {
		env[k] = v
	}
	args := append([]string{sh.name}, sh.args...)
	port := 0
	if sh.http {
		port = joinPort(t)
		args = append(args, strconv.Itoa(port))
		if rt.Name == "net3.1" {
			env["LD_LIBRARY_PATH"] = openSSL11(t)
		}
	}
	app := startServing(t, rt, sink, env, args...)
	defer app.kill()
	if sh.http {
		app.waitLine(t, "listening ", 30*time.Second)
	} else {
		app.waitLine(t, "ready", 30*time.Second)
	}
	if !o.noWarmup {
		time.Sleep(servingWarmup)
	}

	r := servingRun{runtime: rt.Name, unlinked: o.unexported}
	marks := markThirds(sink, o.load)
	if sh.http {
		var tp func(int64) string
		if sh.remote {
			r.callers = map[int64]caller{}
			for id := int64(1); id <= httpRequests(o.rate, o.load); id++ {
				r.callers[id] = newCaller(t, true)
			}
			tp = func(id int64) string { return r.callers[id].traceparent() }
		}
		answered, failed := httpLoad(port, o.rate, o.conns, o.load, tp)
		if failed > 0 {
			t.Errorf("%d of %d requests failed", failed, answered+failed)
		}
		r.handled = answered
	} else {
		app.send(t, "go")
		time.Sleep(o.load)
		app.send(t, "stop")
		r.handled = app.count(t, "stopped ", 30*time.Second)
	}
	r.running = settledSpans(sink, servingQuiet, servingSettle)
	r.thirds = marks.counts()

	app.send(t, "quit")
	app.wait(t, 60*time.Second)
	r.stderr = app.stderr.String()
	if !app.cmd.ProcessState.Success() {
		t.Fatalf("e: the app ended with %v\n%s", app.cmd.ProcessState, tail(r.stderr, 3000))
	}
	r.served = app.count(t, "served ", time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	r.all = sink.WaitIdle(ctx, 300*time.Millisecond)
	cancel()
	r.elapsed = time.Since(start)
	t.Logf("%s: %d handled at %d/s asked, %d served; %d spans while running, %d in all; %v",
		sh.name, r.handled, o.rate, r.served, len(r.running), len(r.all), r.elapsed.Round(time.Second))
	return r
}

// checkServing checks a run with no CPU budget: see TestServing.
func checkServing(t *testing.T, sh servingShape, r servingRun) {
	t.Helper()
	handlers := byNameFragment(r.running, sh.handler)

	// a. A handler span per request, received while the service runs.
	if d := len(handlers) - r.handled; d*100 > r.handled || -d*100 > r.handled {
		t.Errorf("a: %d handler spans received while running, for %d requests handled (want within 1%%)", len(handlers), r.handled)
	}

	// b. Each in a trace of its own request's spans.
	checkRequestTraces(t, sh, r)

	// c. Next to nothing waits for a parent.
	remote := map[string]bool{}
	for _, c := range r.callers {
		remote[c.span] = true
	}
	if orphans := waitingForParent(r.running, remote); len(orphans)*100 > len(r.running) {
		t.Errorf("c: %d of %d spans received while running have a parent not received (want at most 1%%):\n%s",
			len(orphans), len(r.running), spanLines(orphans, r.running, 5))
	}

	// d. The handler spans keep coming.
	checkLastThird(t, sh, r)

	// e. A clean end, nothing dropped.
	checkServingEnd(t, r)
	if t.Failed() {
		t.Logf("spans received while running, by name:\n%s", countByName(r.running))
	}
}

// checkRequestTraces: each handler span received while running is in a
// trace of its own request's spans. A work item a collection forgot (on
// .NET 8, one the runtime moved before clrotel's GC-events session
// started) runs unlinked, a trace of its own all the same; the exit log
// counts it, and that many roots may lack their link.
func checkRequestTraces(t *testing.T, sh servingShape, r servingRun) {
	t.Helper()
	handlers := byNameFragment(r.running, sh.handler)
	if bad, first := requestTraceErrors(sh, r.running, handlers, r.callers, forgottenItems(r.stderr), !r.unlinked); len(bad) > 0 {
		t.Errorf("b: %d of %d handler spans are not in a trace of their request's spans alone (%s); the first:\n%s",
			len(bad), len(handlers), idRange(bad), strings.Join(first, "\n"))
	}
}

// checkShed checks a run with the default CPU budget: every request is a
// trace received or one counted as shed, give or take a handful (such as
// the closure the accept loop made for the next request, which never
// came).
func checkShed(t *testing.T, sh servingShape, r servingRun) {
	t.Helper()
	a := readAccount(t, r.stderr)
	traces := map[string]bool{}
	for _, s := range byNameFragment(r.all, sh.handler) {
		traces[s.TraceID] = true
	}
	t.Logf("%d requests: %d handler traces received, %d traces shed; profiler: %+v", r.handled, len(traces), a.shedTraces, a)
	if d := r.handled - len(traces) - a.shedTraces; d > 10 || d < -10 {
		t.Errorf("shed: %d requests, %d handler traces received and %d traces shed: %d unaccounted for", r.handled, len(traces), a.shedTraces, d)
	}
	checkLastThird(t, sh, r)
	checkServingEnd(t, r)
}

// checkLastThird: at least a fifth of the handler spans received while
// running came in the last third of the load (or the settle after it).
func checkLastThird(t *testing.T, sh servingShape, r servingRun) {
	t.Helper()
	var n [3]int
	for i, s := range r.running {
		if !strings.Contains(s.Name, sh.handler) {
			continue
		}
		switch {
		case i < r.thirds[0]:
			n[0]++
		case i < r.thirds[1]:
			n[1]++
		default:
			n[2]++
		}
	}
	total := n[0] + n[1] + n[2]
	if total == 0 || n[2]*5 < total {
		t.Errorf("d: handler spans received by third of the load: %v; want at least 20%% in the last", n)
	}
}

// checkServingEnd: the app served what was handled, and no call was
// dropped (the exit code and the served line are checked by runServing).
func checkServingEnd(t *testing.T, r servingRun) {
	t.Helper()
	if r.served < r.handled {
		t.Errorf("e: the app served %d, fewer than the %d handled", r.served, r.handled)
	}
	if a := readAccount(t, r.stderr); a.dropped != 0 {
		t.Errorf("e: %d calls dropped; profiler: %+v", a.dropped, a)
	}
	for _, bad := range []string{"calls not traced", "without their method's Leave"} {
		if strings.Contains(r.stderr, bad) {
			t.Errorf("e: the log says %q:\n%s", bad, tail(r.stderr, 3000))
		}
	}
}

// requestTraceErrors checks that each handler span is in a trace of one
// request: one of the shape's chains above it, its two children, nothing
// else; the root's parent the caller's span (remote shapes) or none, in
// which case the root links to a span received (but for at most unlinked
// roots), or, when linked is false (what it came from is not exported),
// to nothing. It returns those that are not, and a description of the
// first few.
func requestTraceErrors(sh servingShape, spans, handlers []otlpsink.Span, callers map[int64]caller, unlinked int, linked bool) ([]otlpsink.Span, []string) {
	ids := byID(spans)
	sizes := map[string]int{}         // spans per trace
	children := map[string][]string{} // span id -> its children's names
	for _, s := range spans {
		sizes[s.TraceID]++
		children[s.ParentSpanID] = append(children[s.ParentSpanID], s.Name)
	}
	byTrace := map[string]caller{}
	for _, c := range callers {
		byTrace[c.trace] = c
	}
	var bad []otlpsink.Span
	var first []string
	for _, h := range handlers {
		// The spans above the handler, root first.
		var chain []otlpsink.Span
		root := h
		for {
			p, ok := ids[root.ParentSpanID]
			if !ok || p.TraceID != h.TraceID {
				break
			}
			chain = append([]otlpsink.Span{p}, chain...)
			root = p
		}
		why := requestTraceError(sh, h, root, chain, children[h.SpanID], sizes[h.TraceID], ids, callers, byTrace, linked)
		if why == errNoLink && unlinked > 0 {
			unlinked--
			continue
		}
		if why == "" {
			continue
		}
		bad = append(bad, h)
		if len(first) < 3 {
			var above []string
			for _, s := range chain {
				above = append(above, s.Name)
			}
			first = append(first, fmt.Sprintf("%s\n  handler: %s\n  its trace: %d spans; above it: %q; under it: %q\n  root: %s (parent: %s)",
				why, spanLine(h), sizes[h.TraceID], above, children[h.SpanID], spanLine(root), parentName(ids, root)))
		}
	}
	return bad, first
}

// errNoLink is requestTraceError's answer for a root without its link.
const errNoLink = "the root has no link to what it was called under"

// forgottenItems is how many work items the exit log says a collection
// forgot: their work runs unlinked.
func forgottenItems(stderr string) int {
	m := regexp.MustCompile(`(\d+) work items forgotten at a collection`).FindStringSubmatch(stderr)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// requestTraceError says what is wrong with the trace of handler span h,
// or "".
func requestTraceError(sh servingShape, h, root otlpsink.Span, chain []otlpsink.Span, children []string, size int,
	ids map[string]otlpsink.Span, callers map[int64]caller, byTrace map[string]caller, linked bool) string {
	var wantParent string
	if sh.remote {
		c, ok := byTrace[h.TraceID]
		if !ok {
			return "in no caller's trace"
		}
		if id, ok := h.Attrs["dotnet.arg.id"].(int64); ok && callers[id].trace != h.TraceID {
			return fmt.Sprintf("in the trace of another request than its own, %d", id)
		}
		wantParent = c.span
	}
	if root.ParentSpanID != wantParent {
		return fmt.Sprintf("the trace's top span received has parent %q, want %q", root.ParentSpanID, wantParent)
	}
	if !matchesChain(chain, sh.chains) {
		return fmt.Sprintf("not what a request's trace has above the handler: want one of %q", sh.chains)
	}
	if sh.leaf {
		if len(children) != 0 {
			return fmt.Sprintf("the leaf handler has children %q", children)
		}
	} else if len(children) != 2 || !containsFragment(children, "Acme.Serving.Repo.Lookup(") || !containsFragment(children, "Acme.Serving.Render.Format(") {
		return "the handler's children are not Repo.Lookup and Render.Format"
	}
	if want := len(chain) + 1 + len(children); size != want {
		return fmt.Sprintf("%d spans in the trace, want %d", size, want)
	}
	if !sh.remote && !linked && len(root.Links) != 0 {
		return fmt.Sprintf("the root links to %d spans; what it came from is not exported", len(root.Links))
	}
	if !sh.remote && linked {
		if len(root.Links) == 0 {
			return errNoLink
		}
		for _, l := range root.Links {
			if _, ok := ids[l.SpanID]; !ok {
				return fmt.Sprintf("the root links to span %s, not received", l.SpanID)
			}
		}
	}
	return ""
}

// idRange says which requests handler spans were for, by their argument.
func idRange(handlers []otlpsink.Span) string {
	var ids []int64
	for _, h := range handlers {
		if id, ok := h.Attrs["dotnet.arg.id"].(int64); ok {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return "none with its id recorded"
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return fmt.Sprintf("ids %d to %d; %d without their id recorded", ids[0], ids[len(ids)-1], len(handlers)-len(ids))
}

func matchesChain(chain []otlpsink.Span, allowed [][]string) bool {
	for _, want := range allowed {
		if len(want) != len(chain) {
			continue
		}
		ok := true
		for i, frag := range want {
			if !strings.Contains(chain[i].Name, frag) {
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// waitingForParent lists the spans whose parent was not received, other
// than a caller's span in another process.
func waitingForParent(spans []otlpsink.Span, remote map[string]bool) []otlpsink.Span {
	ids := byID(spans)
	var out []otlpsink.Span
	for _, s := range spans {
		if _, ok := ids[s.ParentSpanID]; s.ParentSpanID != "" && !ok && !remote[s.ParentSpanID] {
			out = append(out, s)
		}
	}
	return out
}

// countByName lists how many spans have each name, most first.
func countByName(spans []otlpsink.Span) string {
	n := map[string]int{}
	for _, s := range spans {
		n[s.Name]++
	}
	names := spanNames(spans)
	sort.SliceStable(names, func(i, j int) bool { return n[names[i]] > n[names[j]] })
	var b strings.Builder
	for _, name := range names {
		fmt.Fprintf(&b, "  %7d %s\n", n[name], name)
	}
	return b.String()
}

func byNameFragment(spans []otlpsink.Span, frag string) []otlpsink.Span {
	var out []otlpsink.Span
	for _, s := range spans {
		if strings.Contains(s.Name, frag) {
			out = append(out, s)
		}
	}
	return out
}

func containsFragment(names []string, frag string) bool {
	for _, n := range names {
		if strings.Contains(n, frag) {
			return true
		}
	}
	return false
}

// spanLine is one span on a line: enough to find it in a dump.
func spanLine(s otlpsink.Span) string {
	line := fmt.Sprintf("%s trace %s span %s parent %s", s.Name, s.TraceID, s.SpanID, s.ParentSpanID)
	if r, ok := s.Attrs["clrotel.end_reason"]; ok {
		line += fmt.Sprintf(" end_reason=%v", r)
	}
	if len(s.Links) > 0 {
		line += fmt.Sprintf(" links=%v", s.Links)
	}
	return line
}

// spanLines lists up to n of spans, each with the name of its parent
// among all ("<missing>" when not received), and how many more there are.
func spanLines(spans, all []otlpsink.Span, n int) string {
	ids := byID(all)
	var b strings.Builder
	for i, s := range spans {
		if i == n {
			fmt.Fprintf(&b, "  … %d more\n", len(spans)-n)
			break
		}
		fmt.Fprintf(&b, "  %s (parent: %s)\n", spanLine(s), parentName(ids, s))
	}
	return b.String()
}

// thirdMarks records how many spans the sink held at 1/3 and 2/3 of the
// load. The sink keeps spans in arrival order, so a span's index says in
// which third it came.
type thirdMarks struct {
	mu sync.Mutex
	at [2]int
}

func markThirds(sink *otlpsink.Sink, load time.Duration) *thirdMarks {
	m := &thirdMarks{}
	for i := 0; i < 2; i++ {
		i := i
		time.AfterFunc(load*time.Duration(i+1)/3, func() {
			n := sink.Count()
			m.mu.Lock()
			m.at[i] = n
			m.mu.Unlock()
		})
	}
	return m
}

func (m *thirdMarks) counts() [2]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.at
}

// httpLoad sends GET /r/<id> to 127.0.0.1:port, ids from 1, at rate per
// second for load, over conns keep-alive connections; with traceparent,
// each request carries the one it gives for its id. A request falls due
// at its place in the schedule, so a slow answer is caught up on and the
// rate holds on average. It returns the requests answered with Handle's
// reply, and the others.
func httpLoad(port, rate, conns int, load time.Duration, traceparent func(id int64) string) (answered, failed int) {
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}}
	defer client.CloseIdleConnections()
	var next, ok, bad atomic.Int64
	total := httpRequests(rate, load)
	start := time.Now()
	var wg sync.WaitGroup
	for c := 0; c < conns; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				id := next.Add(1)
				if id > total {
					return
				}
				time.Sleep(time.Until(start.Add(time.Duration(id) * time.Second / time.Duration(rate))))
				req, _ := http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d/r/%d", port, id), nil)
				if traceparent != nil {
					req.Header.Set("traceparent", traceparent(id))
				}
				resp, err := client.Do(req)
				if err != nil {
					bad.Add(1)
					continue
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode == 200 && strings.HasPrefix(string(body), fmt.Sprintf("ok %d ", id)) {
					ok.Add(1)
				} else {
					bad.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return int(ok.Load()), int(bad.Load())
}

// httpRequests is how many requests httpLoad sends.
func httpRequests(rate int, load time.Duration) int64 { return int64(load.Seconds() * float64(rate)) }

// openSSL11 is the directory of the OpenSSL 1.1 that .NET Core 3.1's
// HttpListener needs (see TestJoinAcrossProcesses).
func openSSL11(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(repoRoot, ".deps", "openssl11")
	if _, err := os.Stat(filepath.Join(dir, "libssl.so.1.1")); err != nil {
		t.Fatalf("no OpenSSL 1.1 for .NET Core 3.1's HttpListener (run `make deps`): %v", err)
	}
	return dir
}

// servingApp is one running Serving.exe, traced, exporting to a sink. Its
// output is kept whole, so a line printed just before exit is not lost.
type servingApp struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    lineLog
	stderr lockedBuffer
	done   chan struct{}
	err    error // cmd.Wait's, once done is closed
}

func startServing(t *testing.T, rt dotnetRuntime, sink *otlpsink.Sink, env map[string]string, args ...string) *servingApp {
	t.Helper()
	exe := appPath(t, "Serving", rt)
	cmd := exec.Command(rt.Host, append([]string{exe}, args...)...)
	cmd.Env = append(append(baseEnv(), exportEnv(sink, "e2e-serving")...), settingsEnv(env, true)...)
	a := &servingApp{cmd: cmd, done: make(chan struct{})}
	a.out.changed = make(chan struct{})
	cmd.Stdout, cmd.Stderr = &a.out, &a.stderr
	var err error
	if a.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		a.err = cmd.Wait()
		close(a.done)
	}()
	return a
}

func (a *servingApp) send(t *testing.T, line string) {
	t.Helper()
	if _, err := fmt.Fprintln(a.stdin, line); err != nil {
		t.Fatalf("telling the app %q: %v\n%s", line, err, tail(a.stderr.String(), 3000))
	}
}

// waitLine waits for a line of output starting with prefix.
func (a *servingApp) waitLine(t *testing.T, prefix string, timeout time.Duration) string {
	t.Helper()
	deadline := time.After(timeout)
	for {
		l, changed := a.out.find(prefix)
		if changed == nil {
			return l
		}
		select {
		case <-changed:
		case <-a.done:
			if l, changed := a.out.find(prefix); changed == nil {
				return l
			}
			t.Fatalf("the app ended (%v) before printing %q; stdout %q\n%s", a.err, prefix, a.out.String(), tail(a.stderr.String(), 3000))
		case <-deadline:
			t.Fatalf("no %q from the app in %v; stdout %q\n%s", prefix, timeout, a.out.String(), tail(a.stderr.String(), 3000))
		}
	}
}

// count reads the number on the line starting with prefix.
func (a *servingApp) count(t *testing.T, prefix string, timeout time.Duration) int {
	t.Helper()
	l := a.waitLine(t, prefix, timeout)
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(l, prefix)))
	if err != nil {
		t.Fatalf("the app printed %q", l)
	}
	return n
}

// wait waits for the app to end with its stdin closed.
func (a *servingApp) wait(t *testing.T, timeout time.Duration) {
	t.Helper()
	a.stdin.Close()
	select {
	case <-a.done:
	case <-time.After(timeout):
		a.cmd.Process.Kill()
		<-a.done
		t.Fatalf("the app did not end in %v\n%s", timeout, tail(a.stderr.String(), 3000))
	}
}

// kill ends the app if a failed test left it running.
func (a *servingApp) kill() {
	select {
	case <-a.done:
	default:
		a.cmd.Process.Kill()
		<-a.done
	}
}

// lineLog is an io.Writer keeping what was written, by line.
type lineLog struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{} // closed and replaced on each write
}

func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	close(l.changed)
	l.changed = make(chan struct{})
	return len(p), nil
}

// find returns the first complete line starting with prefix, or a channel
// closed on the next write.
func (l *lineLog) find(prefix string) (string, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := strings.Split(l.buf.String(), "\n")
	for _, line := range lines[:len(lines)-1] {
		if strings.HasPrefix(line, prefix) {
			return line, nil
		}
	}
	return "", l.changed
}

func (l *lineLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
