package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
)

// testBinary returns the path of the running test binary, which plays a
// traced app when childEnvVar is set (see childMain).
func testBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func TestRunExitStatus(t *testing.T) {
	noExec := filepath.Join(t.TempDir(), "not-executable")
	if err := os.WriteFile(noExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		command []string
		code    int
		stderr  string
	}{
		{"success", []string{"true"}, 0, ""},
		{"exit code", []string{"/bin/sh", "-c", "exit 3"}, 3, ""},
		{"killed by a signal", []string{"/bin/sh", "-c", "kill -KILL $$"}, 128 + 9, ""},
		{"not found", []string{"/nonexistent/prog"}, 127, "no such file"},
		{"not found in PATH", []string{"clrotel-no-such-program"}, 127, "not found"},
		{"not executable", []string{noExec}, 126, "permission denied"},
	}
	lib := fakeLib(t, "libclrotel.so")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"run", "--quiet", "--wait", "100ms", "--lib", lib, "--"}, tt.command...)
			code, _, stderr := run(args...)
			if code != tt.code {
				t.Errorf("exit status %d, want %d; stderr: %s", code, tt.code, stderr)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr %q does not hold %q", stderr, tt.stderr)
			}
		})
	}
}

func TestRunUsageErrors(t *testing.T) {
	lib := fakeLib(t, "libclrotel.so")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no command", []string{"run", "--lib", lib}, 2, "no command given"},
		{"no command after --", []string{"run", "--lib", lib, "--"}, 2, "no command given"},
		{"out with endpoint", []string{"run", "--endpoint", "http://127.0.0.1:4317", "--out", "x.json", "--lib", lib, "--", "true"}, 2, "--out"},
		{"negative wait", []string{"run", "--wait", "-1s", "--lib", lib, "--", "true"}, 2, "invalid --wait"},
		{"bad wait", []string{"run", "--wait", "soon", "--lib", lib, "--", "true"}, 2, "-wait"},
		{"negative max spans", []string{"run", "--max-spans", "-1", "--lib", lib, "--", "true"}, 2, "invalid --max-spans"},
		{"missing library", []string{"run", "--lib", filepath.Join(t.TempDir(), "libclrotel.so"), "--", "true"}, 1, "profiler library"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.stderr)
			}
		})
	}
}

// durations matches the durations WriteTree prints.
var durations = regexp.MustCompile(`  -?[0-9.]+(ns|µs|ms|s)\b`)

// TestRunPrintsTraces runs the test binary as a traced app end to end:
// clrotel starts its receiver, the child exports to the endpoint it was
// given, and clrotel prints the trees and saves the OTLP/JSON.
func TestRunPrintsTraces(t *testing.T) {
	t.Setenv(childEnvVar, "1")
	t.Setenv("CLROTEL_TEST_CHILD_EXIT", "4")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://192.0.2.1:4317") // must not win over the receiver
	lib := fakeLib(t, "libclrotel.so")
	out := filepath.Join(t.TempDir(), "spans.json")

	code, stdout, stderr := run("run", "--service", "shop", "--out", out, "--lib", lib, "--", testBinary(t))
	if code != 4 {
		t.Fatalf("exit %d, want the child's 4\nstderr: %s", code, stderr)
	}
	if stdout != "child says hello\n" {
		t.Errorf("stdout %q, want the child's", stdout)
	}

	tree, table, found := strings.Cut(stderr, "clrotel: the busiest methods")
	if !found {
		t.Fatalf("no table of the busiest methods:\n%s", stderr)
	}
	// The table: a header, then each method with its call, by calls and
	// name, not folded.
	rows := strings.Split(strings.TrimSpace(table), "\n")
	if len(rows) != 4 || !regexp.MustCompile(`^ +1 .* no +Child\.Main\(String\[\] args\)$`).MatchString(rows[2]) ||
		!regexp.MustCompile(`^ +1 .* no +Child\.Work\(\)$`).MatchString(rows[3]) {
		t.Errorf("busiest methods:\n%s", table)
	}
	got := durations.ReplaceAllString(tree, "  D")
	got = regexp.MustCompile(`trace [0-9a-f]{32}`).ReplaceAllString(got, "trace T")
	want := `trace T  (2 spans, service shop)
└─ Child.Main(String[] args)  D
   │  env.CORECLR_ENABLE_PROFILING="1"
   │  env.CORECLR_PROFILER="{8A4C3E5B-2F61-4D7A-9C0E-5B1D7E3F6A21}"
   │  env.CORECLR_PROFILER_PATH=` + strconv.Quote(lib) + `
   │  env.OTEL_EXPORTER_OTLP_INSECURE="true"
   └─ Child.Work()  D
         ERROR: boom
         dotnet.arg.n=3
         ! exception: System.InvalidOperationException: boom
clrotel: 2 spans in 1 trace
`
	if got != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", got, want)
	}

	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var req collectortrace.ExportTraceServiceRequest
	if err := protojson.Unmarshal(b, &req); err != nil {
		t.Fatalf("--out is not OTLP/JSON: %v\n%s", err, b)
	}
	var names []string
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				names = append(names, s.GetName())
			}
		}
	}
	if want := []string{"Child.Work()", "Child.Main(String[] args)"}; !reflect.DeepEqual(names, want) {
		t.Errorf("--out holds %q, want %q", names, want)
	}
}

func TestRunQuietAndMaxSpans(t *testing.T) {
	t.Setenv(childEnvVar, "1")
	lib := fakeLib(t, "libclrotel.so")

	code, _, stderr := run("run", "--quiet", "--lib", lib, "--", testBinary(t))
	if code != 0 || stderr != "" {
		t.Errorf("--quiet: exit %d, stderr %q; want 0 and nothing", code, stderr)
	}

	code, _, stderr = run("run", "--max-spans", "1", "--lib", lib, "--", testBinary(t))
	stderr, _, _ = strings.Cut(stderr, "clrotel: the busiest methods") // the trees
	if code != 0 || !strings.Contains(stderr, "Child.Main") || strings.Contains(stderr, "Child.Work") ||
		!strings.Contains(stderr, "... 1 more span\nclrotel: 2 spans in 1 trace\n") {
		t.Errorf("--max-spans 1: exit %d, stderr:\n%s", code, stderr)
	}
}

func TestRunNoSpans(t *testing.T) {
	code, _, stderr := run("run", "--wait", "100ms", "--lib", fakeLib(t, "libclrotel.so"), "--", "true")
	if code != 0 || stderr != "clrotel: no spans received\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestRunWithEndpoint(t *testing.T) {
	collector, err := otlpsink.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer collector.Close()
	t.Setenv(childEnvVar, "1")

	code, _, stderr := run("run", "--endpoint", collector.Endpoint(), "--service", "shop", "--lib", fakeLib(t, "libclrotel.so"), "--", testBinary(t))
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing printed", code, stderr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	spans, err := collector.WaitSpans(ctx, 2)
	if err != nil {
		t.Fatalf("the endpoint got %d spans: %v", len(spans), err)
	}
	if got := spans[0].Resource["service.name"]; got != "shop" {
		t.Errorf("service.name %v, want shop", got)
	}
}

func TestRunOutUnwritable(t *testing.T) {
	lib := fakeLib(t, "libclrotel.so")
	out := filepath.Join(t.TempDir(), "missing", "spans.json")
	tests := []struct {
		command string
		code    int
	}{
		{"exit 0", 1},
		{"exit 5", 5},
	}
	for _, tt := range tests {
		code, _, stderr := run("run", "--quiet", "--wait", "100ms", "--out", out, "--lib", lib, "--", "/bin/sh", "-c", tt.command)
		if code != tt.code || !strings.Contains(stderr, "clrotel run: --out") {
			t.Errorf("%s: exit %d, stderr %q; want %d and a --out error", tt.command, code, stderr, tt.code)
		}
	}
}

// readyWriter closes ready once marker has been written to it.
type readyWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	marker string
	once   sync.Once
	ready  chan struct{}
}

func (w *readyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.marker) {
		w.once.Do(func() { close(w.ready) })
	}
	return len(p), nil
}

func TestRunForwardsSignals(t *testing.T) {
	stdout := &readyWriter{marker: "ready\n", ready: make(chan struct{})}
	var stderr bytes.Buffer
	done := make(chan int, 1)
	script := `trap 'exit 42' TERM; echo ready; while :; do sleep 0.05; done`
	go func() {
		done <- dispatch([]string{"run", "--quiet", "--wait", "100ms", "--lib", fakeLib(t, "libclrotel.so"), "--", "/bin/sh", "-c", script}, stdout, &stderr)
	}()
	select {
	case <-stdout.ready:
	case code := <-done:
		t.Fatalf("exited %d before the child was ready: %s", code, stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatal("the child never got ready")
	}
	// clrotel catches SIGTERM from before the child starts, so this does
	// not end the test binary; it reaches the child, which exits 42.
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != 42 {
			t.Errorf("exit %d, want 42 from the child's trap; stderr: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the signal did not reach the child")
	}
}

func TestChildEnv(t *testing.T) {
	environ := []string{
		"PATH=/bin",
		"CORECLR_PROFILER=old",
		"CORECLR_PROFILER_PATH_64=/other.so",
		"OTEL_TRACES_EXPORTER=none",
		"KEEP=a=b",
	}
	set := []envVar{{name: "CORECLR_PROFILER", value: "new"}, {name: "X", value: ""}}
	got := childEnv(environ, set, []string{"CORECLR_PROFILER_PATH_64", "OTEL_TRACES_EXPORTER"})
	want := []string{"PATH=/bin", "KEEP=a=b", "CORECLR_PROFILER=new", "X="}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("childEnv\n got %q\nwant %q", got, want)
	}
}

// The folded summary says when the folded counts stop short (re-JIT
// without hooks).
func TestFoldedApproximate(t *testing.T) {
	spans := []otlpsink.Span{{Attrs: map[string]any{
		"clrotel.folded.count": int64(7), "clrotel.folded.top": []any{"A.Get() ×7 1µs"},
	}}}
	for _, approx := range []bool{false, true} {
		if approx {
			spans[0].Attrs["clrotel.folded.approximate"] = true
		}
		var b bytes.Buffer
		var f foldedTally
		f.add(&spans[0])
		if err := f.write(&b); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "re-JIT-compiled without hooks"); got != approx || !strings.Contains(b.String(), "7 more calls") {
			t.Errorf("approximate %v:\n%s", approx, b.String())
		}
	}
}
