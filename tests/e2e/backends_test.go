package e2e

import (
	"context"
	"encoding/json"
	"fmt"
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

// backend starts a long-running process for a test and stops it after.
func backend(t *testing.T, name string, env []string, args ...string) {
	t.Helper()
	bin := filepath.Join(repoRoot, ".deps", "backends", name)
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s not built: run `make backends` (scripts/backends.sh): %v", name, err)
	}
	logf, err := os.Create(filepath.Join(t.TempDir(), name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
		if t.Failed() {
			b, _ := os.ReadFile(logf.Name())
			if len(b) > 4000 {
				b = b[len(b)-4000:]
			}
			t.Logf("%s log (tail):\n%s", name, b)
		}
	})
}

func waitPort(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s did not open", addr)
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// jaegerTraces is the part of Jaeger's /api/traces answer the test reads.
type jaegerTraces struct {
	Data []struct {
		TraceID string `json:"traceID"`
		Spans   []struct {
			SpanID        string `json:"spanID"`
			OperationName string `json:"operationName"`
			Tags          []struct {
				Key   string `json:"key"`
				Value any    `json:"value"`
			} `json:"tags"`
			Logs []struct {
				Fields []struct {
					Key   string `json:"key"`
					Value any    `json:"value"`
				} `json:"fields"`
			} `json:"logs"`
		} `json:"spans"`
	} `json:"data"`
}

// The whole path: traced app -> the repository's collector-config.yaml in a
// real OpenTelemetry Collector -> Jaeger v2 (queried over its HTTP API), and
// the Tempo half of the config -> a second OTLP receiver standing in for
// Tempo.
func TestCollectorToJaegerAndTempo(t *testing.T) {
	rt := runtimes[0]
	backend(t, "jaeger", nil)
	waitPort(t, "127.0.0.1:16686")
	waitPort(t, "127.0.0.1:4317")

	tempo, err := otlpsink.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tempo.Close()

	grpcAddr, httpAddr := freePort(t), freePort(t)
	backend(t, "otelcol", []string{
		"OTELCOL_GRPC_ENDPOINT=" + grpcAddr,
		"OTELCOL_HTTP_ENDPOINT=" + httpAddr,
		"JAEGER_OTLP_ENDPOINT=127.0.0.1:4317",
		"TEMPO_OTLP_ENDPOINT=" + tempo.Addr(),
	}, "--config", filepath.Join(repoRoot, "collector-config.yaml"))
	waitPort(t, grpcAddr)

	service := fmt.Sprintf("clrotel-e2e-%d", time.Now().UnixNano())
	r := runApp(t, rt, "Exceptions", nil, runOpts{profilerNoSink: true, env: map[string]string{
		"CORECLR_ENABLE_PROFILING":    "1",
		"OTEL_EXPORTER_OTLP_ENDPOINT": "http://" + grpcAddr,
		"OTEL_SERVICE_NAME":           service,
	}})
	if r.ExitCode != 0 {
		t.Fatalf("exit %d\n%s", r.ExitCode, r.Stderr)
	}

	// Jaeger: find the trace by service, with span names, a tag and the
	// exception event (a Jaeger log).
	var got jaegerTraces
	deadline := time.Now().Add(30 * time.Second)
	for {
		got = jaegerTraces{}
		resp, err := http.Get("http://127.0.0.1:16686/api/traces?service=" + service + "&limit=20")
		if err == nil {
			_ = json.NewDecoder(resp.Body).Decode(&got)
			resp.Body.Close()
		}
		if len(got.Data) > 0 && len(got.Data[0].Spans) >= 20 || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if len(got.Data) == 0 {
		t.Fatal("Jaeger has no trace for the service")
	}
	found := map[string]bool{}
	for _, tr := range got.Data {
		for _, s := range tr.Spans {
			if s.OperationName == "Exceptions.exe!Acme.Errors.Levels.Bottom()" {
				found["span"] = true
				for _, tag := range s.Tags {
					if tag.Key == "code.function.name" && tag.Value == "Acme.Errors.Levels.Bottom" {
						found["tag"] = true
					}
					if tag.Key == "otel.status_code" && tag.Value == "ERROR" {
						found["status"] = true
					}
				}
				for _, l := range s.Logs {
					for _, f := range l.Fields {
						if f.Key == "exception.message" && f.Value == "boom at the bottom" {
							found["event"] = true
						}
					}
				}
			}
			if strings.HasPrefix(s.OperationName, "Exceptions.exe!Acme.Errors.Custom.Parse(") {
				for _, tag := range s.Tags {
					if tag.Key == "dotnet.arg.s" && tag.Value == "x" {
						found["argument"] = true
					}
				}
			}
		}
	}
	for _, what := range []string{"span", "tag", "status", "event", "argument"} {
		if !found[what] {
			t.Errorf("Jaeger: no %s found", what)
		}
	}

	// Tempo's half: the same spans arrive at its OTLP endpoint.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	spans, _ := tempo.WaitSpans(ctx, 30)
	if len(byName(spans, "Exceptions.exe!Acme.Errors.Levels.Bottom()")) != 1 {
		t.Errorf("the Tempo exporter delivered %d spans, without Levels.Bottom", len(spans))
	}
}
