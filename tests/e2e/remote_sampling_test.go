package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

const (
	alphaSpan = "Remote.exe!Acme.Remote.Work.Alpha(Int32 phase, Int32 i)"
	betaSpan  = "Remote.exe!Acme.Remote.Work.Beta(Int32 phase, Int32 i)"
	markSpan  = "Remote.exe!Acme.Remote.Work.Mark(Int32 phase)"
	// markRule keeps every Mark call, whatever else samples.
	markRule = "    - {match: Acme.Remote.Work.Mark, sample: always}\n"
)

// liveApp is tests/e2e/apps/Remote.cs running traced, driven a phase at a
// time through its stdin, while the test changes what sampling it gets.
type liveApp struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	sink   *otlpsink.Sink
	mu     sync.Mutex
	stdout []string
	stderr strings.Builder
	done   chan struct{}
}

func startLive(t *testing.T, rt dotnetRuntime, profiled bool, env map[string]string) *liveApp {
	t.Helper()
	exe := appPath(t, "Remote", rt)
	a := &liveApp{t: t, done: make(chan struct{})}
	a.cmd = exec.Command(rt.Host, exe)
	e := baseEnv()
	if profiled {
		sink, err := otlpsink.Listen("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sink.Close() })
		a.sink = sink
		e = append(append(e, attachEnv()...), "OTEL_EXPORTER_OTLP_ENDPOINT="+sink.Endpoint(), "OTEL_BSP_SCHEDULE_DELAY=100",
			"CLROTEL_INCLUDE=Acme.Remote.Work.*", "CLROTEL_LOG_LEVEL=info")
	}
	a.cmd.Env = append(e, settingsEnv(env, profiled)...)
	var err error
	if a.stdin, err = a.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, _ := a.cmd.StdoutPipe()
	errp, _ := a.cmd.StderrPipe()
	if err := a.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			a.mu.Lock()
			a.stdout = append(a.stdout, sc.Text())
			a.mu.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		sc := bufio.NewScanner(errp)
		for sc.Scan() {
			a.mu.Lock()
			a.stderr.WriteString(sc.Text() + "\n")
			a.mu.Unlock()
		}
	}()
	go func() { wg.Wait(); a.cmd.Wait(); close(a.done) }()
	t.Cleanup(func() {
		a.stdin.Close()
		select {
		case <-a.done:
		case <-time.After(10 * time.Second):
			a.cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("app stderr:\n%s", a.log())
		}
	})
	return a
}

func (a *liveApp) log() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stderr.String()
}

// waitFor polls cond for up to 30 s: generous, for a loaded machine.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitLog waits until the profiler's log holds text n times.
func (a *liveApp) waitLog(text string, n int) {
	a.t.Helper()
	waitFor(a.t, fmt.Sprintf("%q in the log", text), func() bool { return strings.Count(a.log(), text) >= n })
}

// burst runs n calls of Alpha and n of Beta as roots, tagged phase, and
// waits for the app to say it is done and the export to go quiet. It
// returns how many Alpha and Beta spans of the phase arrived.
func (a *liveApp) burst(phase, n int) (alpha, beta int) {
	a.t.Helper()
	fmt.Fprintf(a.stdin, "burst %d %d\n", phase, n)
	want := fmt.Sprintf("burst %d %d ", phase, n)
	waitFor(a.t, "the app's "+want, func() bool {
		a.mu.Lock()
		defer a.mu.Unlock()
		return len(a.stdout) > 0 && strings.HasPrefix(a.stdout[len(a.stdout)-1], want)
	})
	if a.sink == nil {
		return 0, 0
	}
	// The phase's Mark span comes after its other spans (one thread, one
	// ring, drained in order); a quiet moment after it catches a batch
	// uploaded out of order.
	waitFor(a.t, fmt.Sprintf("phase %d's Mark span", phase), func() bool {
		for _, s := range a.sink.Spans() {
			if s.Name == markSpan && s.Attrs["dotnet.arg.phase"] == int64(phase) {
				return true
			}
		}
		return false
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, s := range a.sink.WaitIdle(ctx, 300*time.Millisecond) {
		if s.Attrs["dotnet.arg.phase"] != int64(phase) {
			continue
		}
		switch s.Name {
		case alphaSpan:
			alpha++
		case betaSpan:
			beta++
		}
	}
	return alpha, beta
}

// quit ends the app and returns its whole output.
func (a *liveApp) quit() string {
	a.t.Helper()
	fmt.Fprintln(a.stdin, "quit")
	a.stdin.Close()
	select {
	case <-a.done:
	case <-time.After(30 * time.Second):
		a.t.Fatal("the app did not exit")
	}
	if code := a.cmd.ProcessState.ExitCode(); code != 0 {
		a.t.Fatalf("exit code %d", code)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return strings.Join(a.stdout, "\n")
}

// binomialInterval is the interval a Binomial(n, p) count falls outside
// of once in 100,000 (normal approximation, z = 4.42): a run checks
// fourteen counts, and at 99.9% one run in seventy would fail by chance.
// It still tells a ratio from its neighbours: at n = 2000 and p = 0.5 it
// is 901..1099.
func binomialInterval(n int, p float64) (lo, hi int) {
	mean, sd := float64(n)*p, math.Sqrt(float64(n)*p*(1-p))
	return int(math.Floor(mean - 4.42*sd)), int(math.Ceil(mean + 4.42*sd))
}

func inInterval(t *testing.T, what string, got, n int, p float64) {
	t.Helper()
	if lo, hi := binomialInterval(n, p); got < lo || got > hi {
		t.Errorf("%s: %d of %d sampled, want %d..%d (p=%v)", what, got, n, lo, hi, p)
	}
}

// writeAtomically replaces a file whole, as editors and config management
// do, so a reader never sees half of it.
func writeAtomically(t *testing.T, path, content string) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// jaegerWithStrategies starts Jaeger v2 (make backends) serving the
// strategies file over its HTTP sampling API, reloading the file every
// 200 ms, and returns the API's URL and a function that stops Jaeger.
func jaegerWithStrategies(t *testing.T, strategies string) (endpoint string, stop func()) {
	t.Helper()
	bin := filepath.Join(repoRoot, ".deps", "backends", "jaeger")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("jaeger not built: run `make backends` (scripts/backends.sh): %v", err)
	}
	dir := t.TempDir()
	samplingAddr, otlpAddr := freePort(t), freePort(t)
	cfg := fmt.Sprintf(`service:
  extensions: [jaeger_storage, remote_sampling]
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
extensions:
  jaeger_storage:
    backends:
      mem:
        memory:
          max_traces: 1000
  remote_sampling:
    file:
      path: %s
      reload_interval: 200ms
    http:
      endpoint: %s
receivers:
  otlp:
    protocols:
      grpc:
        endpoint: %s
exporters:
  jaeger_storage_exporter:
    trace_storage: mem
`, strategies, samplingAddr, otlpAddr)
	cfgPath := filepath.Join(dir, "jaeger.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	logf, err := os.Create(filepath.Join(dir, "jaeger.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config", cfgPath)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			_ = cmd.Process.Signal(os.Interrupt)
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				<-done
			}
		})
	}
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			b, _ := os.ReadFile(logf.Name())
			if len(b) > 3000 {
				b = b[len(b)-3000:]
			}
			t.Logf("jaeger log (tail):\n%s", b)
		}
	})
	waitPort(t, samplingAddr)
	return "http://" + samplingAddr, stop
}

func strategiesJSON(service string, p float64, silenced ...string) string {
	ops := ""
	for i, o := range silenced {
		if i > 0 {
			ops += ","
		}
		ops += fmt.Sprintf(`{"operation":%q,"type":"probabilistic","param":0}`, o)
	}
	if ops != "" {
		ops = `,"operation_strategies":[` + ops + `]`
	}
	return fmt.Sprintf(`{"default_strategy":{"type":"probabilistic","param":1},
 "service_strategies":[{"service":%q,"type":"probabilistic","param":%v%s}]}`, service, p, ops)
}

// Live strategies from a real Jaeger v2: 1.0, then 0.1, then a per-operation
// entry that silences Beta by span name, then one that silences Alpha by
// code.function.name; then Jaeger stops and the last strategy stays.
// The app's output is the same as without the profiler.
func TestJaegerRemoteLive(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		service := "remote-e2e-" + rt.Name
		strategies := filepath.Join(t.TempDir(), "strategies.json")
		writeAtomically(t, strategies, strategiesJSON(service, 1))
		endpoint, stopJaeger := jaegerWithStrategies(t, strategies)

		a := startLive(t, rt, true, map[string]string{
			"OTEL_SERVICE_NAME":       service,
			"OTEL_TRACES_SAMPLER":     "parentbased_jaeger_remote",
			"OTEL_TRACES_SAMPLER_ARG": "endpoint=" + endpoint + ",pollingIntervalMs=200,initialSamplingRate=0",
			"CLROTEL_SAMPLING_RULES":  "Acme.Remote.Work.Mark=always",
		})
		const n = 2000
		a.waitLog("jaeger_remote: strategy for "+service+": probabilistic: probability 1", 1)
		if al, be := a.burst(1, 300); al != 300 || be != 300 {
			t.Errorf("at 1.0: %d Alpha and %d Beta of 300 each", al, be)
		}

		writeAtomically(t, strategies, strategiesJSON(service, 0.1))
		a.waitLog("probabilistic: probability 0.1", 1)
		al, be := a.burst(2, n)
		inInterval(t, "Alpha at 0.1", al, n, 0.1)
		inInterval(t, "Beta at 0.1", be, n, 0.1)

		writeAtomically(t, strategies, strategiesJSON(service, 0.1, betaSpan))
		a.waitLog("  "+betaSpan+": probability 0", 1)
		al, be = a.burst(3, n)
		inInterval(t, "Alpha at 0.1 beside a silenced Beta", al, n, 0.1)
		if be != 0 {
			t.Errorf("Beta silenced by its operation entry: %d spans", be)
		}

		// An entry may name a method by its code.function.name instead.
		writeAtomically(t, strategies, strategiesJSON(service, 0.1, "Acme.Remote.Work.Alpha"))
		a.waitLog("  Acme.Remote.Work.Alpha: probability 0", 1)
		al, be = a.burst(4, n)
		inInterval(t, "Beta at 0.1 beside a silenced Alpha", be, n, 0.1)
		if al != 0 {
			t.Errorf("Alpha silenced by its code.function.name: %d spans", al)
		}

		// Jaeger goes away: one warning, and the last strategy stays.
		stopJaeger()
		a.waitLog("keeping the last strategy", 1)
		al, be = a.burst(5, n)
		inInterval(t, "Beta with Jaeger down", be, n, 0.1)
		if al != 0 {
			t.Errorf("Alpha with Jaeger down: %d spans", al)
		}
		a.burst(6, 10) // more polls fail meanwhile
		if c := strings.Count(a.log(), "keeping the last strategy"); c != 1 {
			t.Errorf("the failure was logged %d times, want once", c)
		}
		got := a.quit()

		plain := startLive(t, rt, false, nil)
		for _, b := range [][2]int{{1, 300}, {2, n}, {3, n}, {4, n}, {5, n}, {6, 10}} {
			plain.burst(b[0], b[1])
		}
		if want := plain.quit(); got != want {
			t.Errorf("output with the profiler:\n%s\nwithout:\n%s", got, want)
		}
	})
}

// CLROTEL_CONFIG reloads while the app runs: a good edit applies (and a
// capture change is reported as not live), a broken edit is reported
// with its line and the previous settings keep working.
func TestConfigReloadLive(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		cfg := filepath.Join(t.TempDir(), "clrotel.yaml")
		writeAtomically(t, cfg, "sampling:\n  sampler: always_on\n  rules:\n"+markRule)
		a := startLive(t, rt, true, map[string]string{"CLROTEL_CONFIG": cfg})
		if al, be := a.burst(1, 200); al != 200 || be != 200 {
			t.Fatalf("always_on: %d Alpha and %d Beta of 200 each", al, be)
		}

		writeAtomically(t, cfg, "capture:\n  max_string: 64\nsampling:\n  sampler: traceidratio\n  ratio: 0.5\n  rules:\n"+markRule+"    - {match: Acme.Remote.Work.Beta, sample: never}\n")
		a.waitLog("reloaded", 1)
		if !strings.Contains(a.log(), "capture changed; it applies at the next start") {
			t.Errorf("the capture change was not reported as not live")
		}
		const n = 2000
		al, be := a.burst(2, n)
		inInterval(t, "Alpha at 0.5 after the reload", al, n, 0.5)
		if be != 0 {
			t.Errorf("Beta under a never rule: %d spans", be)
		}

		// A broken edit: the ratio on line 4 is out of range.
		writeAtomically(t, cfg, "sampling:\n  sampler: traceidratio\n  rules: []\n  ratio: 7\n")
		a.waitLog(cfg+":4: sampling.ratio", 1)
		al, be = a.burst(3, n)
		inInterval(t, "Alpha after a rejected edit", al, n, 0.5)
		if be != 0 {
			t.Errorf("Beta after a rejected edit: %d spans", be)
		}
		a.burst(4, 10) // the watcher looks again meanwhile
		if c := strings.Count(a.log(), "sampling.ratio"); c != 1 {
			t.Errorf("the broken file was reported %d times, want once", c)
		}

		// Fixed: applies again.
		writeAtomically(t, cfg, "sampling:\n  sampler: always_off\n  rules:\n"+markRule)
		a.waitLog("reloaded", 2)
		if al, be := a.burst(5, 200); al != 0 || be != 0 {
			t.Errorf("always_off: %d Alpha and %d Beta", al, be)
		}
		a.quit()
	})
}
