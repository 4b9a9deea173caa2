package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/otlpsink"
)

// TestNoCodeShaping: OpenTelemetry .NET's no-code file (upstream's complete
// example, adapted to NoCode.cs) named by OTEL_CONFIG_FILE shapes
// ProcessOrder's spans: named process-order, SERVER, with the configured
// attributes from the captured request, code.function.name kept, status
// OK for the completed order and ERROR with the rule's description for
// the failed one. With capture off the spans keep their name, kind and
// static attribute; the attributes and status rules that need values are
// not applied. A file with an expression clrotel does not evaluate is
// rejected with its line and column, and the app runs as before,
// unshaped. Both runtimes.
func TestNoCodeShaping(t *testing.T) {
	good := filepath.Join(repoRoot, "tests", "e2e", "testdata", "nocode.yaml")
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	badData := strings.Replace(string(data), `value_source: "arguments[0].CustomerId"`, `value_source: "size(arguments[0].CustomerId)"`, 1)
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
				if capture == "off" {
					for _, s := range shaped {
						if s.Attrs["order.id"] != nil || s.StatusCode != "unset" {
							t.Errorf("capture off: %v, status %s", s.Attrs, s.StatusCode)
						}
					}
					return
				}
				small, large := byOrder["A-1"], byOrder["B-2"]
				if small.Attrs["customer.id"] != "c7" || small.Attrs["order.total"] != 25.5 || small.StatusCode != "ok" {
					t.Errorf("the completed order: %v, status %s", small.Attrs, small.StatusCode)
				}
				if large.Attrs["customer.id"] != "c8" || large.Attrs["order.total"] != 5000.0 || large.StatusCode != "error" || large.StatusMsg != "Order processing failed" {
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
			if !strings.Contains(r.Stderr, bad+":28:32: instrumentation/development.dotnet.no_code.targets.0.span.attributes.1.value_source: the function size() is not supported by clrotel") {
				t.Errorf("no precise error:\n%s", r.Stderr)
			}
			if len(byName(r.Spans, "process-order")) != 0 || len(byName(r.Spans, "NoCode.exe!MyApp.Services.OrderService.ProcessOrder(MyApp.Models.OrderRequest request)")) != 2 {
				t.Errorf("spans %v, want ProcessOrder unshaped", spanNames(r.Spans))
			}
		})
	})
}
