package shaping

import (
	"reflect"
	"strings"
	"testing"
)

// upstream is the complete example of upstream's docs/nocode-instrumentation.md,
// with the expressions clrotel does not evaluate left out, kind server, and
// the file's other sections around it.
const upstream = `file_format: "1.0"
tracer_provider: {}
instrumentation/development:
  dotnet:
    no_code:
      targets:
        - target:
            assembly:
              name: MyApp.Services
            type: MyApp.Services.OrderService
            method: ProcessOrder
            signature:
              return_type: MyApp.Models.OrderResult
              parameter_types:
                - MyApp.Models.OrderRequest
          span:
            name: process-order
            kind: server
            attributes:
              - name: order.id
                value_source: "arguments[0].OrderId"
                type: string
              - name: order.total
                value_source: "arguments[0].TotalAmount"
                type: double
              - name: component
                value: orders
                type: string
              - name: order.status
                value_source: return.Status
                type: string
            status:
              rules:
                - condition: "return == null"
                  code: error
                  description: "Null result returned"
                - condition: "return.Status == \"Failed\""
                  code: error
                  description: "Order processing failed"
                - condition: "return.Status == \"Completed\""
                  code: ok
        - target:
            type: "MyApp.*Service"
            method: "Get*"
          span:
            name: get
`

func TestParseUpstream(t *testing.T) {
	r, err := Parse("otel.yaml", []byte(upstream))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Targets) != 2 {
		t.Fatalf("%d targets", len(r.Targets))
	}
	tg := r.Targets[0]
	if tg.Name != "process-order" || tg.Kind != KindServer || tg.Assembly != "MyApp.Services" || !tg.HasSignature ||
		!reflect.DeepEqual(tg.ParamTypes, []string{"MyApp.Models.OrderRequest"}) || len(tg.Attrs) != 4 || len(tg.Status) != 3 {
		t.Fatalf("target %+v", tg)
	}
	if a := tg.Attrs[2]; a.Value != "orders" || a.Expr != nil {
		t.Errorf("static attribute %+v", a)
	}
	if a := tg.Attrs[3]; !a.AtReturn || tg.Attrs[0].AtReturn {
		t.Errorf("evaluated at return: %v, %v", a.AtReturn, tg.Attrs[0].AtReturn)
	}
	desc := MethodDesc{Assembly: "MyApp.Services", Type: "MyApp.Services.OrderService", Method: "ProcessOrder",
		ReturnType: "MyApp.Models.OrderResult", ParamTypes: []string{"MyApp.Models.OrderRequest"}}
	if r.Match(desc) != tg {
		t.Error("the exact target does not match")
	}
	desc.ParamTypes = []string{"String"}
	if got := r.Match(desc); got != nil {
		t.Errorf("another overload matched %+v", got)
	}
	if got := r.Match(MethodDesc{Assembly: "X", Type: "MyApp.Billing.InvoiceService", Method: "GetAll"}); got != r.Targets[1] {
		t.Errorf("the glob target: %+v", got)
	}
	none, err := Parse("otel.yaml", []byte("file_format: \"1.0\"\n"))
	if err != nil || len(none.Targets) != 0 {
		t.Errorf("a file without no_code: %v, %v", none, err)
	}
}

func TestSameType(t *testing.T) {
	for _, c := range []struct {
		file, ours string
		want       bool
	}{
		{"System.String", "String", true}, {"System.Void", "Void", true}, {"", "Void", true},
		{"System.Int32", "String", false}, {"Acme.Item", "Acme.Item", true}, {"System.Acme.Item", "Acme.Item", false},
		{"Acme.*", "Acme.Item", true},
	} {
		if got := sameType(c.file, c.ours); got != c.want {
			t.Errorf("sameType(%q, %q) = %v", c.file, c.ours, got)
		}
	}
}

// Every problem of a file, with its line and column; unsupported
// expressions are rejected where they are.
func TestParseErrors(t *testing.T) {
	file := `instrumentation/development:
  dotnet:
    no_code:
      targets:
        - target:
            type: A.B
            method: M
            sinature: {}
          span:
            name: m
            kind: sideways
            name_source: "method"
            attributes:
              - name: a
                value_source: "arguments[0].Name ? arguments[0].Name : \"x\""
              - name: b
                value_source: startsWith(arguments[0], "x")
              - name: c
                value_source: "arguments[0] + return"
              - name: d
                value_source: "arguments[0].Id == return"
              - name: e
                value: 1
                type: int_array
            status:
              rules:
                - condition: "arguments[0] == null"
                  code: error
                - condition: "return"
                  code: maybe
`
	_, err := Parse("f.yaml", []byte(file))
	want := []string{
		`f.yaml:8:13: targets.0.target.sinature: unknown key`,
		`f.yaml:11:19: targets.0.span.kind: want internal, server, client, producer or consumer; found "sideways"`,
		`f.yaml:12:26: targets.0.span.name_source: not supported by clrotel`,
		`f.yaml:15:50: targets.0.span.attributes.0.value_source: the conditional operator (? :) is not supported by clrotel in "arguments[0].Name ? arguments[0].Name : \"x\""`,
		`f.yaml:17:31: targets.0.span.attributes.1.value_source: the function startsWith() is not supported by clrotel`,
		`f.yaml:19:45: targets.0.span.attributes.2.value_source: the operator "+" is not supported by clrotel`,
		`f.yaml:21:31: targets.0.span.attributes.3.value_source: reads the return value and the arguments or instance`,
		`f.yaml:24:23: targets.0.span.attributes.4.type: want string, bool, int or double; found "int_array"`,
		`f.yaml:27:30: targets.0.span.status.rules.0.condition: reads the arguments or instance`,
		`f.yaml:29:19: targets.0.span.status.rules.1.code: want ok, error or unset; found "maybe"`,
	}
	if err == nil {
		t.Fatal("no error")
	}
	got := strings.Split(err.Error(), "\n")
	if len(got) != len(want) {
		t.Fatalf("got\n%s", err)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], strings.Replace(want[i], "targets.", "instrumentation/development.dotnet.no_code.targets.", 1)) {
			t.Errorf("got  %s\nwant %s", got[i], want[i])
		}
	}
}

// env is a call's values for tests.
type env map[string]any

func (e env) Value(root string, index int, members []string) (any, bool) {
	key := root
	if root == "arguments" {
		key += "[" + string(rune('0'+index)) + "]"
	}
	for _, m := range members {
		key += "." + m
	}
	v, ok := e[key]
	return v, ok
}
func (e env) Method() string { return "ProcessOrder" }
func (e env) Type() string   { return "Acme.Orders" }

func TestEval(t *testing.T) {
	vals := env{"arguments[0]": int64(42), "arguments[1].Name": "ann", "return.Status": "Failed", "return.Total": 12.5, "return.Ok": false, "return": nil}
	for _, c := range []struct {
		src  string
		want any
	}{
		{"arguments[0]", int64(42)},
		{"arguments[0] == 42", true},
		{"arguments[0] >= 42.5", false},
		{"arguments[1].Name == 'ann' && arguments[0] > 40", true},
		{"arguments[1].Missing", nil},
		{"arguments[1].Missing == null", true},
		{"return.Status != \"Completed\"", true},
		{"!return.Ok || return.Total < 10", true},
		{"(return.Total > 10) == true", true},
		{"return == null", true},
		{"method == \"ProcessOrder\" && type == \"Acme.Orders\"", true},
		{"arguments[1].Name", "ann"},
		{"return.Status < 1", false},
	} {
		e, err := ParseExpr(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got := e.Eval(vals); got != c.want {
			t.Errorf("%s = %#v, want %#v", c.src, got, c.want)
		}
	}
}

func TestConvertAndSplit(t *testing.T) {
	for _, c := range []struct {
		v    any
		typ  string
		want any
		ok   bool
	}{
		{int64(3), "string", "3", true}, {"7", "int", int64(7), true}, {"x", "int", nil, false}, {2.5, "int", nil, false},
		{int64(2), "double", 2.0, true}, {"true", "bool", true, true}, {nil, "string", nil, false},
	} {
		got, ok := Convert(c.v, c.typ)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("Convert(%#v, %s) = %#v, %v", c.v, c.typ, got, ok)
		}
	}
	if got := ParamTypes("Int32 id, System.Collections.Generic.Dictionary<String, Int32> map, Acme.Item[] items"); !reflect.DeepEqual(got,
		[]string{"Int32", "System.Collections.Generic.Dictionary<String, Int32>", "Acme.Item[]"}) {
		t.Errorf("ParamTypes = %q", got)
	}
	for f, want := range map[string][2]string{
		"Acme.Shop.Repo<Acme.Shop.Item>.Find<Int32>": {"Acme.Shop.Repo<Acme.Shop.Item>", "Find<Int32>"},
		"Acme.Fold.Box..ctor":                        {"Acme.Fold.Box", ".ctor"},
		"Main":                                       {"", "Main"},
	} {
		if typ, m := SplitFunction(f); typ != want[0] || m != want[1] {
			t.Errorf("SplitFunction(%q) = %q, %q", f, typ, m)
		}
	}
}
