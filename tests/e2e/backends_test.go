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
	"strconv"
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

// collector starts a real Collector on the repository's
// collector-config.yaml, its exporters' endpoints given by env
// (JAEGER_OTLP_ENDPOINT=..., ...), and returns its OTLP/gRPC address.
func collector(t *testing.T, env ...string) string {
	t.Helper()
	grpcAddr, httpAddr := freePort(t), freePort(t)
	backend(t, "otelcol", append([]string{"OTELCOL_GRPC_ENDPOINT=" + grpcAddr, "OTELCOL_HTTP_ENDPOINT=" + httpAddr}, env...),
		"--config", filepath.Join(repoRoot, "collector-config.yaml"))
	waitPort(t, grpcAddr)
	return grpcAddr
}

// jaegerAndTempo starts Jaeger, an OTLP receiver standing in for Tempo and
// a Collector sending to both, and returns the Collector's OTLP/gRPC
// address and the Tempo stand-in (closed when the test ends).
func jaegerAndTempo(t *testing.T) (string, *otlpsink.Sink) {
	t.Helper()
	backend(t, "jaeger", nil)
	waitPort(t, "127.0.0.1:16686")
	waitPort(t, "127.0.0.1:4317")
	tempo, err := otlpsink.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tempo.Close() })
	return collector(t, "JAEGER_OTLP_ENDPOINT=127.0.0.1:4317", "TEMPO_OTLP_ENDPOINT="+tempo.Addr()), tempo
}

// The whole path: traced app -> the repository's collector-config.yaml in a
// real OpenTelemetry Collector -> Jaeger v2 (queried over its HTTP API), and
// the Tempo half of the config -> a second OTLP receiver standing in for
// Tempo.
func TestCollectorToJaegerAndTempo(t *testing.T) {
	rt := runtimes[0]
	grpcAddr, tempo := jaegerAndTempo(t)

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

// jaegerTrace is the part of Jaeger's /api/traces answer TestServiceInJaeger
// reads: a trace's spans with their references, and the warnings Jaeger
// shows above the trace (an invalid parent among them).
type jaegerTrace struct {
	TraceID string `json:"traceID"`
	Spans   []struct {
		SpanID        string `json:"spanID"`
		OperationName string `json:"operationName"`
		References    []struct {
			RefType string `json:"refType"`
			TraceID string `json:"traceID"`
			SpanID  string `json:"spanID"`
		} `json:"references"`
		Warnings []string `json:"warnings"`
	} `json:"spans"`
	Warnings []string `json:"warnings"`
}

// TestServiceInJaeger: a service's traces as Jaeger shows them while it
// runs: its start-up trace (Main, the loops, sent when they began serving)
// and one trace per request, each with its handler as root and a
// FOLLOWS_FROM reference to the loop that served it; no trace or span with
// a warning (Jaeger warns of a parent it does not have).
func TestServiceInJaeger(t *testing.T) {
	rt := runtimes[0]
	backend(t, "jaeger", nil)
	waitPort(t, "127.0.0.1:16686")
	waitPort(t, "127.0.0.1:4317")
	sink, err := otlpsink.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	service := fmt.Sprintf("clrotel-serving-%d", time.Now().UnixNano())
	port := joinPort(t)
	// As in TestServing, a request's trace is three spans whatever their
	// timing (servingEnv), and no CPU budget sheds requests for the
	// machine's load (settingsEnv).
	env := servingEnv()
	env["OTEL_EXPORTER_OTLP_ENDPOINT"] = "http://127.0.0.1:4317"
	env["OTEL_SERVICE_NAME"] = service
	if rt.Name == "net3.1" {
		env["LD_LIBRARY_PATH"] = openSSL11(t)
	}
	app := startServing(t, rt, sink, env, "thread-loop", strconv.Itoa(port))
	defer app.kill()
	app.waitLine(t, "listening ", 30*time.Second)
	time.Sleep(servingWarmup)
	if answered, failed := httpLoad(port, 100, 2, 3*time.Second, nil); failed > 0 || answered == 0 {
		t.Fatalf("%d requests answered, %d failed", answered, failed)
	}

	// While the service still runs.
	var got struct{ Data []jaegerTrace }
	requests := 0
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		got.Data = nil
		resp, err := http.Get("http://127.0.0.1:16686/api/traces?service=" + service + "&limit=1000")
		if err != nil {
			continue
		}
		_ = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		requests = 0
		for _, tr := range got.Data {
			if len(tr.Spans) == 3 {
				requests++
			}
		}
		if requests >= 250 {
			break
		}
	}
	if requests < 250 {
		t.Fatalf("Jaeger shows %d request traces of 300 sent, in %d traces", requests, len(got.Data))
	}
	startup := 0
	for _, tr := range got.Data {
		for _, w := range tr.Warnings {
			t.Errorf("trace %s: Jaeger warns: %s", tr.TraceID, w)
		}
		for _, s := range tr.Spans {
			for _, w := range s.Warnings {
				t.Errorf("trace %s, span %s: Jaeger warns: %s", tr.TraceID, s.OperationName, w)
			}
			if strings.Contains(s.OperationName, "Acme.Serving.Program.Main(") {
				startup++
			}
		}
		if len(tr.Spans) != 3 {
			continue
		}
		for _, s := range tr.Spans {
			if !strings.Contains(s.OperationName, "Acme.Serving.Handler.Handle(") {
				continue
			}
			follows := false
			for _, r := range s.References {
				follows = follows || r.RefType == "FOLLOWS_FROM"
				if r.RefType == "CHILD_OF" {
					t.Errorf("trace %s: the handler has a parent (%s)", tr.TraceID, r.SpanID)
				}
			}
			if !follows {
				t.Errorf("trace %s: the handler has no FOLLOWS_FROM reference to its loop", tr.TraceID)
			}
		}
	}
	if startup != 1 {
		t.Errorf("Jaeger shows Main in %d traces while the service runs, want its start-up trace", startup)
	}
	app.send(t, "quit")
	app.wait(t, 30*time.Second)
}
