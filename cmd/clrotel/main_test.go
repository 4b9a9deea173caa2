package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// childEnvVar, set, makes the test binary play a traced app: see
// childMain.
const childEnvVar = "CLROTEL_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnvVar) == "1" {
		os.Exit(childMain())
	}
	os.Exit(m.Run())
}

// childMain is a stand-in for a .NET app under the profiler: it exports a
// small trace with the OpenTelemetry SDK to wherever the environment says
// (OTEL_EXPORTER_OTLP_ENDPOINT, _INSECURE, OTEL_SERVICE_NAME, as the
// profiler reads them), records the profiler variables it was given as
// attributes, says hello on stdout, and exits with CLROTEL_TEST_CHILD_EXIT.
func childMain() int {
	ctx := context.Background()
	exp, err := otlptracegrpc.New(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 90
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	tr := tp.Tracer("clrotel/child")
	var attrs []attribute.KeyValue
	for _, name := range []string{"CORECLR_ENABLE_PROFILING", "CORECLR_PROFILER", "CORECLR_PROFILER_PATH", "OTEL_EXPORTER_OTLP_INSECURE"} {
		attrs = append(attrs, attribute.String("env."+name, os.Getenv(name)))
	}
	ctx, root := tr.Start(ctx, "Child.Main(String[] args)", trace.WithAttributes(attrs...))
	_, work := tr.Start(ctx, "Child.Work()", trace.WithAttributes(attribute.Int64("dotnet.arg.n", 3), attribute.String("thread.id", "hidden")))
	work.AddEvent("exception", trace.WithAttributes(
		attribute.String("exception.type", "System.InvalidOperationException"),
		attribute.String("exception.message", "boom"),
	))
	work.SetStatus(codes.Error, "boom")
	work.End()
	root.End()
	if err := tp.Shutdown(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 91
	}
	fmt.Println("child says hello")
	code, _ := strconv.Atoi(os.Getenv("CLROTEL_TEST_CHILD_EXIT"))
	return code
}

// run calls dispatch and returns its exit status, stdout and stderr.
func run(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = dispatch(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestDispatch(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string // a part of it
		stderr     string // a part of it
		stderrNone bool
	}{
		{name: "no arguments", args: nil, code: 2, stderr: "Usage:\n  clrotel <command>"},
		{name: "help", args: []string{"help"}, code: 0, stdout: "Commands:\n  env ", stderrNone: true},
		{name: "--help", args: []string{"--help"}, code: 0, stdout: "Examples:", stderrNone: true},
		{name: "-h", args: []string{"-h"}, code: 0, stdout: "clrotel <command>", stderrNone: true},
		{name: "unknown command", args: []string{"bogus"}, code: 2, stderr: `unknown command "bogus"`},
		{name: "env --help", args: []string{"env", "--help"}, code: 0, stdout: "Usage: clrotel env [flags]", stderrNone: true},
		{name: "env -h flags", args: []string{"env", "-h"}, code: 0, stdout: "-endpoint URL", stderrNone: true},
		{name: "env help example", args: []string{"env", "--help"}, code: 0, stdout: `eval "$(clrotel env`},
		{name: "run --help", args: []string{"run", "--help"}, code: 0, stdout: "Usage: clrotel run [flags] [--] command [args...]", stderrNone: true},
		{name: "run help example", args: []string{"run", "-h"}, code: 0, stdout: "clrotel run -- dotnet Shop.dll"},
		{name: "help run", args: []string{"help", "run"}, code: 0, stdout: "Usage: clrotel run"},
		{name: "version --help", args: []string{"version", "--help"}, code: 0, stdout: "Usage: clrotel version", stderrNone: true},
		{name: "config --help", args: []string{"config", "--help"}, code: 0, stderr: "Usage: clrotel config validate FILE"},
		{name: "unknown flag", args: []string{"env", "--bogus"}, code: 2, stderr: "flag provided but not defined: -bogus\nRun 'clrotel env --help' for usage."},
		{name: "env stray argument", args: []string{"env", "stray"}, code: 2, stderr: `unexpected argument "stray"`},
		{name: "version stray argument", args: []string{"version", "x"}, code: 2, stderr: `unexpected argument "x"`},
		{name: "bad shell", args: []string{"env", "--shell", "cmd.exe"}, code: 2, stderr: `invalid --shell "cmd.exe"`},
		{name: "config usage", args: []string{"config"}, code: 2, stderr: "Usage: clrotel config validate"},
		{name: "config missing file", args: []string{"config", "validate", "/nonexistent/x.yaml"}, code: 1, stderr: "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(tt.args...)
			if code != tt.code {
				t.Errorf("exit status %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if !strings.Contains(stdout, tt.stdout) {
				t.Errorf("stdout %q does not hold %q", stdout, tt.stdout)
			}
			if !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr %q does not hold %q", stderr, tt.stderr)
			}
			if tt.stderrNone && stderr != "" {
				t.Errorf("stderr %q, want nothing", stderr)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	code, stdout, _ := run("version")
	want := fmt.Sprintf("clrotel dev (%s, %s/%s)\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if code != 0 || stdout != want {
		t.Fatalf("exit %d, %q; want %q", code, stdout, want)
	}
}

func TestConfigValidate(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(good, []byte("sampling:\n  sampler: traceidratio\n  ratio: 0.1\n"), 0o644)
	os.WriteFile(bad, []byte("sampling:\n  ratio: 2\n  sampel: x\n"), 0o644)
	var out, errb bytes.Buffer
	if code := dispatch([]string{"config", "validate", good}, &out, &errb); code != 0 || !strings.Contains(out.String(), "ok") {
		t.Fatalf("good file: exit %d %s %s", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	// Both problems, in line order.
	want := bad + ":2: sampling.ratio: want a ratio from 0 to 1; found 2\n" +
		bad + ":3: sampling.sampel: unknown key (a typo?): sampling takes the keys burst, min_duration, rate_limit, ratio, remote, rules, sampler\n"
	if code := dispatch([]string{"config", "validate", bad}, &out, &errb); code != 1 || errb.String() != want {
		t.Fatalf("bad file: exit %d, stderr %q, want %q", code, errb.String(), want)
	}
}

// An OpenTelemetry configuration file is checked for its no-code targets.
func TestConfigValidateNoCode(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "otel.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(good, []byte("file_format: \"1.0\"\ninstrumentation/development:\n  dotnet:\n    no_code:\n      targets:\n        - target: {type: A.B, method: M}\n          span: {name: m}\n"), 0o644)
	os.WriteFile(bad, []byte("file_format: \"1.0\"\ninstrumentation/development:\n  dotnet:\n    no_code:\n      targets:\n        - target: {type: A.B, method: M}\n          span: {name: m, kind: up}\n"), 0o644)
	var out, errb bytes.Buffer
	if code := dispatch([]string{"config", "validate", good}, &out, &errb); code != 0 || !strings.Contains(out.String(), "1 no-code targets") {
		t.Fatalf("good file: exit %d %s %s", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	if code := dispatch([]string{"config", "validate", bad}, &out, &errb); code != 1 || !strings.Contains(errb.String(), bad+":7:33: instrumentation/development.dotnet.no_code.targets.0.span.kind: want internal, server") {
		t.Fatalf("bad file: exit %d, stderr %q", code, errb.String())
	}
}

func TestSamplingShow(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("service") != "shop" {
			http.Error(w, "unknown", http.StatusBadRequest)
			return
		}
		// As Jaeger v2 answers for a service with an operation entry.
		fmt.Fprint(w, `{"strategyType":0,"probabilisticSampling":{"samplingRate":0.1},"operationSampling":{"defaultSamplingProbability":0.1,"defaultLowerBoundTracesPerSecond":0,"perOperationStrategies":[{"operation":"Shop.dll!Acme.Health.Ping()","probabilisticSampling":{"samplingRate":0}}]}}`)
	}))
	defer srv.Close()
	code, out, errs := run("sampling", "show", "--endpoint", srv.URL, "--service", "shop")
	want := "service shop: per operation: default probability 0.1, at least 0 traces per second per method\n  Shop.dll!Acme.Health.Ping(): probability 0\n"
	if code != 0 || out != want {
		t.Fatalf("exit %d\n%s\nstderr %s", code, out, errs)
	}
	if code, _, errs = run("sampling", "show", "--endpoint", srv.URL, "--service", "other"); code != 1 || !strings.Contains(errs, "HTTP 400") {
		t.Errorf("unknown service: exit %d, %q", code, errs)
	}
	if code, _, _ = run("sampling", "show", "--endpoint", srv.URL); code != 2 {
		t.Errorf("no --service: exit %d", code)
	}
	if code, out, _ = run("sampling", "--help"); code != 0 || !strings.Contains(out, "Usage: clrotel sampling show") {
		t.Errorf("help: exit %d %q", code, out)
	}
}
