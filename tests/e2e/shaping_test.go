package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

// TestNoCodeShaping: OpenTelemetry .NET's no-code file (upstream's complete
// example, adapted to NoCode.cs) named by OTEL_CONFIG_FILE shapes
// ProcessOrder's spans: named process-order, SERVER, with the configured
// attributes from the captured request, code.function.name kept, status
// OK for the completed order and ERROR with the rule's description for
// the failed one. With capture off the spans keep their name, kind and
// static attribute; the attributes and status rules that need values are
// not applied. The file's other targets, written as upstream's own test
// app writes them, shape an async method (its status and return.Status
// from its task's result, when the task completes), a generic type's
// generic method (Repository`1, !!0, !0; `type` is upstream's
// Repository`1) and a nested type's (OrderService+Audit) with array
// attributes. A file with an expression upstream's language lacks is
// rejected with its line and column, and the app runs as before,
// unshaped. Both runtimes.
func TestNoCodeShaping(t *testing.T) {
	good := filepath.Join(repoRoot, "tests", "e2e", "testdata", "nocode.yaml")
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	badData := strings.Replace(string(data), `value_source: "arguments[0].CustomerId"`, `value_source: "lower(arguments[0].CustomerId)"`, 1)
	if err := os.WriteFile(bad, []byte(badData), 0o644); err != nil {
		t.Fatal(err)
	}
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		want := runApp(t, rt, "NoCode", nil, runOpts{})
		for _, capture := range []string{"on", "off"} {
			t.Run("capture="+capture, func(t *testing.T) {
				r := runApp(t, rt, "NoCode", nil, runOpts{profiler: true, env: map[string]string{
					"OTEL_EXPERIMENTAL_FILE_BASED_CONFIGURATION_ENABLED": "true",
					"OTEL_CONFIG_FILE": good,
					"CLROTEL_CAPTURE":  capture,
				}})
				if r.ExitCode != want.ExitCode || r.Stdout != want.Stdout {
					t.Fatalf("traced run differs: exit %d\n%s\nwant\n%s\n%s", r.ExitCode, r.Stdout, want.Stdout, r.Stderr)
				}
				shaped := byName(r.Spans, "process-order")
				if len(shaped) != 2 {
					t.Fatalf("%d process-order spans; spans: %v\n%s", len(shaped), spanNames(r.Spans), r.Stderr)
				}
				byOrder := map[string]otlpsink.Span{}
				for i, s := range shaped {
					if s.Kind != "server" || s.Attrs["code.function.name"] != "MyApp.Services.OrderService.ProcessOrder" || s.Attrs["order.system"] != "shop" {
						t.Errorf("span %d: kind %s, attributes %v", i, s.Kind, s.Attrs)
					}
					id, _ := s.Attrs["order.id"].(string)
					byOrder[id] = s
				}
				checkUpstreamForms(t, r.Spans, capture == "on")
				if capture == "off" {
					for _, s := range shaped {
						if s.Attrs["order.id"] != nil || s.StatusCode != "unset" {
							t.Errorf("capture off: %v, status %s", s.Attrs, s.StatusCode)
						}
					}
					return
				}
				small, large := byOrder["A-1"], byOrder["B-2"]
				if small.Attrs["customer.id"] != "c7" || small.Attrs["order.total"] != 25.5 || small.StatusCode != "ok" ||
					small.Attrs["operation.name"] != "ProcessOrder-Express" || small.Attrs["order.size"] != "small" {
					t.Errorf("the completed order: %v, status %s", small.Attrs, small.StatusCode)
				}
				if large.Attrs["customer.id"] != "c8" || large.Attrs["order.total"] != 5000.0 || large.StatusCode != "error" || large.StatusMsg != "Order processing failed" ||
					large.Attrs["operation.name"] != "ProcessOrder-Bulk" || large.Attrs["order.size"] != "large" {
					t.Errorf("the failed order: %v, status %s %q", large.Attrs, large.StatusCode, large.StatusMsg)
				}
			})
		}
		t.Run("unsupported expression", func(t *testing.T) {
			r := runApp(t, rt, "NoCode", nil, runOpts{profiler: true, env: map[string]string{
				"OTEL_EXPERIMENTAL_FILE_BASED_CONFIGURATION_ENABLED": "true",
				"OTEL_CONFIG_FILE": bad,
			}})
			if r.ExitCode != want.ExitCode || r.Stdout != want.Stdout {
				t.Fatalf("traced run differs: exit %d\n%s", r.ExitCode, r.Stdout)
			}
			if !strings.Contains(r.Stderr, bad+":28:32: instrumentation/development.dotnet.no_code.targets.0.span.attributes.1.value_source: unknown function lower()") {
				t.Errorf("no precise error:\n%s", r.Stderr)
			}
			if len(byName(r.Spans, "process-order")) != 0 || len(byName(r.Spans, "NoCode.exe!MyApp.Services.OrderService.ProcessOrder(MyApp.Models.OrderRequest request)")) != 2 {
				t.Errorf("spans %v, want ProcessOrder unshaped", spanNames(r.Spans))
			}
		})
	})
}

// TestNoCodeToJaeger: the no-code file of TestNoCodeShaping, read from
// clrotel's own configuration file (its no_code key) on one runtime and
// from OTEL_CONFIG_FILE on the other, through the repository's
// collector-config.yaml in a real Collector to Jaeger: Jaeger's query API
// gives the named SERVER spans with the configured attributes and their
// statuses, and the async method's CONSUMER spans with the status and
// attribute their task's result decided. Both runtimes.
func TestNoCodeToJaeger(t *testing.T) {
	grpcAddr, _ := jaegerAndTempo(t)

	noCode := filepath.Join(repoRoot, "tests", "e2e", "testdata", "nocode.yaml")
	data, err := os.ReadFile(noCode)
	if err != nil {
		t.Fatal(err)
	}
	// clrotel's own file: upstream's no_code section under its own key.
	section := string(data)[strings.Index(string(data), "    no_code:"):]
	own := filepath.Join(t.TempDir(), "clrotel.yaml")
	if err := os.WriteFile(own, []byte(strings.ReplaceAll(section, "\n    ", "\n")[4:]), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, rt := range runtimes {
		env := map[string]string{"OTEL_EXPERIMENTAL_FILE_BASED_CONFIGURATION_ENABLED": "true", "OTEL_CONFIG_FILE": noCode}
		if i%2 == 1 {
			env = map[string]string{"CLROTEL_CONFIG": own}
		}
		t.Run(rt.Name, func(t *testing.T) {
			service := fmt.Sprintf("clrotel-nocode-%d", time.Now().UnixNano())
			env["CORECLR_ENABLE_PROFILING"] = "1"
			env["OTEL_EXPORTER_OTLP_ENDPOINT"] = "http://" + grpcAddr
			env["OTEL_SERVICE_NAME"] = service
			r := runApp(t, rt, "NoCode", nil, runOpts{profilerNoSink: true, env: env})
			if r.ExitCode != 0 {
				t.Fatalf("exit %d\n%s", r.ExitCode, r.Stderr)
			}
			shaped := jaegerOperation(t, service, "process-order", 2)
			if len(shaped) != 2 {
				t.Fatalf("Jaeger has %d process-order spans\n%s", len(shaped), r.Stderr)
			}
			byOrder := map[any]map[string]any{}
			for _, tags := range shaped {
				if tags["span.kind"] != "server" || tags["code.function.name"] != "MyApp.Services.OrderService.ProcessOrder" || tags["order.system"] != "shop" {
					t.Errorf("span tags %v", tags)
				}
				byOrder[tags["order.id"]] = tags
			}
			small, large := byOrder["A-1"], byOrder["B-2"]
			if small["customer.id"] != "c7" || small["order.total"] != 25.5 || small["operation.name"] != "ProcessOrder-Express" ||
				small["order.size"] != "small" || small["otel.status_code"] != "OK" {
				t.Errorf("the completed order in Jaeger: %v", small)
			}
			if large["customer.id"] != "c8" || large["order.total"] != 5000.0 || large["operation.name"] != "ProcessOrder-Bulk" ||
				large["order.size"] != "large" || large["otel.status_code"] != "ERROR" || large["otel.status_description"] != "Order processing failed" {
				t.Errorf("the failed order in Jaeger: %v", large)
			}
			async := map[any]map[string]any{}
			for _, tags := range jaegerOperation(t, service, "process-order-async", 2) {
				async[tags["order.id"]] = tags
			}
			if a := async["A-1"]; a["span.kind"] != "consumer" || a["order.status"] != "Completed" || a["otel.status_code"] != "OK" {
				t.Errorf("the completed async order in Jaeger: %v", a)
			}
			if a := async["B-2"]; a["order.status"] != "Failed" || a["otel.status_code"] != "ERROR" || a["otel.status_description"] != "Order processing failed" {
				t.Errorf("the failed async order in Jaeger: %v", a)
			}
		})
	}
}

// jaegerOperation returns the tags of the spans of operation op of
// service in Jaeger's query API, waiting up to 30 s for n of them.
func jaegerOperation(t *testing.T, service, op string, n int) []map[string]any {
	t.Helper()
	var out []map[string]any
	deadline := time.Now().Add(30 * time.Second)
	for len(out) < n && time.Now().Before(deadline) {
		out = nil
		var got jaegerTraces
		resp, err := http.Get("http://127.0.0.1:16686/api/traces?service=" + service + "&operation=" + op + "&limit=20")
		if err == nil {
			_ = json.NewDecoder(resp.Body).Decode(&got)
			resp.Body.Close()
		}
		for _, tr := range got.Data {
			for _, s := range tr.Spans {
				if s.OperationName != op {
					continue
				}
				tags := map[string]any{}
				for _, tag := range s.Tags {
					tags[tag.Key] = tag.Value
				}
				out = append(out, tags)
			}
		}
		if len(out) < n {
			time.Sleep(500 * time.Millisecond)
		}
	}
	return out
}

// checkUpstreamForms checks the spans of NoCode.cs's async, generic and
// nested targets (tests/e2e/testdata/nocode.yaml); with capture off only
// what needs no value.
func checkUpstreamForms(t *testing.T, spans []otlpsink.Span, captured bool) {
	t.Helper()
	async := byName(spans, "process-order-async")
	if len(async) != 2 {
		t.Fatalf("%d process-order-async spans; spans: %v", len(async), spanNames(spans))
	}
	for _, s := range async {
		// It awaits Task.Delay(20), whose timer the runtime reads from the
		// coarse clock (4 ms ticks on Linux): it may fire after 16 ms. A
		// span that ended at the first await would last microseconds.
		if s.Kind != "consumer" || s.Duration() < 10*time.Millisecond {
			t.Errorf("process-order-async: kind %s, lasted %v (not until its task completed)", s.Kind, s.Duration())
		}
		if !captured {
			if s.Attrs["order.status"] != nil || s.StatusCode != "unset" {
				t.Errorf("capture off: %v, status %s", s.Attrs, s.StatusCode)
			}
			continue
		}
		switch s.Attrs["order.id"] {
		case "A-1":
			if s.Attrs["order.status"] != "Completed" || s.StatusCode != "ok" {
				t.Errorf("the completed async order: %v, status %s", s.Attrs, s.StatusCode)
			}
		case "B-2":
			if s.Attrs["order.status"] != "Failed" || s.StatusCode != "error" || s.StatusMsg != "Order processing failed" {
				t.Errorf("the failed async order: %v, status %s %q", s.Attrs, s.StatusCode, s.StatusMsg)
			}
		default:
			t.Errorf("process-order-async: %v", s.Attrs)
		}
	}
	save := byName(spans, "repo-save")
	if len(save) != 1 || save[0].Attrs["repo.operation"] != "MyApp.Services.Repository`1.Save" ||
		captured != (save[0].Attrs["repo.key"] == "A-1") {
		t.Errorf("repo-save: %v; spans: %v", save, spanNames(spans))
	}
	audit := byName(spans, "audit-record")
	if len(audit) != 1 {
		t.Fatalf("%d audit-record spans; spans: %v", len(audit), spanNames(spans))
	}
	a := audit[0]
	if !captured {
		if a.Attrs["audit.tags"] != nil || a.StatusCode != "unset" {
			t.Errorf("capture off: audit-record %v, status %s", a.Attrs, a.StatusCode)
		}
		return
	}
	tags, _ := a.Attrs["audit.tags"].([]any)
	counts, _ := a.Attrs["audit.counts"].([]any)
	if fmt.Sprint(tags) != "[express gift]" || fmt.Sprint(counts) != "[1 2]" || a.Attrs["audit.first"] != "express" || a.StatusCode != "ok" {
		t.Errorf("audit-record: %v, status %s", a.Attrs, a.StatusCode)
	}
}
