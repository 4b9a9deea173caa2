package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// When the test binary is started with CLROTEL_TEST_CHILD set it plays a
// traced app: it exports one span to the endpoint it was given and exits.
func TestMain(m *testing.M) {
	if os.Getenv("CLROTEL_TEST_CHILD") == "1" {
		ctx := context.Background()
		exp, err := otlptracegrpc.New(ctx) // reads OTEL_EXPORTER_OTLP_ENDPOINT / _INSECURE
		if err != nil {
			os.Exit(90)
		}
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		_, span := tp.Tracer("child").Start(ctx, "Child.Work()")
		span.End()
		_ = tp.Shutdown(ctx)
		os.Exit(4)
	}
	os.Exit(m.Run())
}

func fakeLib(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte("not really a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func parseExports(t *testing.T, out string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, "export ") {
			t.Fatalf("not an export line: %q", line)
		}
		kv := strings.TrimPrefix(line, "export ")
		i := strings.IndexByte(kv, '=')
		// Undo the single-quote shell quoting.
		v := kv[i+1:]
		v = strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(v, "'"), "'"), `'\''`, "'")
		m[kv[:i]] = v
	}
	return m
}

func TestEnv(t *testing.T) {
	lib := fakeLib(t, "lib with 'quote.so")
	var out, errb bytes.Buffer
	code := dispatch([]string{"env", "--endpoint", "http://127.0.0.1:4317", "--service", "shop", "--lib", lib, "--config", "cfg.yaml"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got := parseExports(t, out.String())
	wd, _ := os.Getwd()
	want := map[string]string{
		"CORECLR_ENABLE_PROFILING":          "1",
		"CORECLR_PROFILER":                  clsid,
		"CORECLR_PROFILER_PATH":             lib,
		"DOTNET_EnableDiagnostics_Profiler": "1",
		"OTEL_EXPORTER_OTLP_PROTOCOL":       "grpc",
		"OTEL_EXPORTER_OTLP_ENDPOINT":       "http://127.0.0.1:4317",
		"OTEL_SERVICE_NAME":                 "shop",
		"CLROTEL_CONFIG":                    filepath.Join(wd, "cfg.yaml"),
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d variables, want %d: %v", len(got), len(want), got)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"env", "--endpoint", "127.0.0.1:4317"}, 2, "--endpoint"},
		{[]string{"env", "--endpoint", "ftp://x"}, 2, "scheme"},
		{[]string{"env", "stray"}, 2, "unexpected argument"},
		{[]string{"run"}, 2, "no command"},
		{[]string{"bogus"}, 2, "unknown command"},
		{[]string{}, 2, "Usage"},
		{[]string{"env", "--help"}, 0, "Usage: clrotel env"},
		{[]string{"run", "-h"}, 0, "Usage: clrotel run"},
		{[]string{"config", "validate", "/nonexistent/x.yaml"}, 1, "no such file"},
		{[]string{"config"}, 2, "Usage: clrotel config validate"},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		code := dispatch(tt.args, &out, &errb)
		if code != tt.code || !strings.Contains(errb.String()+out.String(), tt.msg) {
			t.Errorf("%v: exit %d (want %d), output %q (want %q)", tt.args, code, tt.code, errb.String()+out.String(), tt.msg)
		}
	}
}

func TestVersion(t *testing.T) {
	var out bytes.Buffer
	if code := dispatch([]string{"version"}, &out, &out); code != 0 || !strings.HasPrefix(out.String(), "clrotel dev (go") {
		t.Fatalf("exit %d: %q", code, out.String())
	}
}

func TestRunPassesExitCode(t *testing.T) {
	var out, errb bytes.Buffer
	code := dispatch([]string{"run", "--quiet", "--wait", "100ms", "--lib", fakeLib(t, "l.so"), "--", "/bin/sh", "-c", "exit 3"}, &out, &errb)
	if code != 3 {
		t.Fatalf("exit %d, want 3: %s", code, errb.String())
	}
}

func TestRunPrintsReceivedTraces(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CLROTEL_TEST_CHILD", "1")
	jsonPath := filepath.Join(t.TempDir(), "spans.json")
	var out, errb bytes.Buffer
	code := dispatch([]string{"run", "--wait", "5s", "--out", jsonPath, "--lib", fakeLib(t, "l.so"), "--", exe}, &out, &errb)
	if code != 4 {
		t.Fatalf("exit %d, want the child's 4: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "Child.Work()") || !strings.Contains(errb.String(), "clrotel: 1 spans in 1 traces") {
		t.Errorf("tree output:\n%s", errb.String())
	}
	b, err := os.ReadFile(jsonPath)
	if err != nil || !strings.Contains(string(b), `"name":"Child.Work()"`) {
		t.Errorf("JSON file: %v %s", err, b)
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
	if code := dispatch([]string{"config", "validate", bad}, &out, &errb); code != 1 || !strings.Contains(errb.String(), bad+":3: unknown key \"sampel\"") {
		t.Fatalf("bad file: exit %d, stderr %q", code, errb.String())
	}
}
