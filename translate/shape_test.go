package translate

import (
	"strings"
	"testing"

	"github.com/clrotel/clrotel/capture"
	"github.com/clrotel/clrotel/shaping"
)

const orderRules = `instrumentation/development:
  dotnet:
    no_code:
      targets:
        - target:
            assembly: {name: App}
            type: App.Shop
            method: Order
            signature:
              return_type: System.Int32
              parameter_types: [System.Int32, System.String]
          span:
            name: place-order
            kind: server
            attributes:
              - {name: component, value: shop, type: string}
              - {name: order.id, value_source: "arguments[0]", type: string}
              - {name: order.big, value_source: "arguments[0] > 100", type: bool}
              - {name: order.result, value_source: "return", type: int}
            status:
              rules:
                - {condition: "return < 0", code: error, description: "order refused"}
                - {condition: "return > 0", code: ok}
`

// TestShaping: a method a no-code target selects is named, of the kind and
// with the attributes the target says, from the values captured, keeps its
// code.function.name, and gets its status from the first rule that holds
// at return; with the return value not captured, rules reading it are not
// applied. Other methods are unchanged.
func TestShaping(t *testing.T) {
	rules, err := shaping.Parse("otel.yaml", []byte(orderRules))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name       string
		ret        []byte // nil: the return value not captured
		wantStatus string
		wantResult any
	}{
		{"refused", i4(-1), "error", int64(-1)},
		{"placed", i4(9), "ok", int64(9)},
		{"zero", i4(0), "unset", int64(0)},
		{"return not captured", nil, "unset", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.tr.Shapes = rules
			flags := uint16(0)
			if tt.ret != nil {
				flags = capture.FlagValues
			}
			f.feed(rec{kind: capture.KindEnter, flags: capture.FlagRoot | capture.FlagValues, fn: 1, trace: traceA, vals: append(i4(170), str("pen")...), time: 100},
				rec{kind: capture.KindEnter, fn: 2, time: 110, pos: 64},
				rec{kind: capture.KindLeave, fn: 2, time: 120},
				rec{kind: capture.KindLeave, flags: flags, fn: 1, vals: tt.ret, time: 200})
			spans := f.spans(t)
			s, ok := spans["place-order"]
			if !ok {
				t.Fatalf("no span place-order in %v", spans)
			}
			a := s.Attrs
			if s.Kind != "server" || a["component"] != "shop" || a["order.id"] != "170" || a["order.big"] != true ||
				a["code.function.name"] != "App.Shop.Order" || a["dotnet.arg.name"] != "pen" || a["order.result"] != tt.wantResult {
				t.Errorf("span %s %v", s.Kind, a)
			}
			if s.StatusCode != tt.wantStatus || tt.wantStatus == "error" && s.StatusMsg != "order refused" {
				t.Errorf("status %s %q, want %s", s.StatusCode, s.StatusMsg, tt.wantStatus)
			}
			if p, ok := spans[price]; !ok || p.Kind != "internal" {
				t.Errorf("the unshaped child: %+v", p)
			}
			if u := f.tr.UnmatchedTargets(); len(u) != 0 {
				t.Errorf("unmatched targets %+v", u)
			}
		})
	}
}

// A target that selects no method that made a span is reported.
func TestUnmatchedTargets(t *testing.T) {
	rules, err := shaping.Parse("otel.yaml", []byte(strings.Replace(orderRules, "method: Order", "method: Ordre", 1)))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	f.tr.Shapes = rules
	f.feed(rec{kind: capture.KindEnter, flags: capture.FlagRoot, fn: 1, trace: traceA, time: 100}, rec{kind: capture.KindLeave, fn: 1, time: 200})
	if u := f.tr.UnmatchedTargets(); len(u) != 1 || u[0].Method != "Ordre" {
		t.Errorf("unmatched %+v", u)
	}
}

// TestShapingFromTheCall: name_source names each span from its call's
// arguments (the target's name when it gives null), status rules and
// attributes evaluated at return read the arguments the call began with,
// and static array attributes are exported as arrays.
func TestShapingFromTheCall(t *testing.T) {
	rules, err := shaping.Parse("otel.yaml", []byte(`instrumentation/development:
  dotnet:
    no_code:
      targets:
        - target: {type: App.Shop, method: Order}
          span:
            name: order
            name_source: "\"Order-\" + arguments[1]"
            kind: server
            attributes:
              - {name: order.key, value_source: "string(arguments[0]) + \"/\" + string(return)", type: string}
              - {name: name.length, value_source: "size(arguments[1])", type: int}
              - {name: tags, value: [a, b], type: string_array}
            status:
              rules:
                - {condition: "arguments[1] == \"bad\" && return > 0", code: error, description: "bad name accepted"}
                - {condition: "startsWith(arguments[1], \"p\")", code: ok}
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		arg        []byte
		ret        int32
		wantName   string
		wantStatus string
		wantKey    string
	}{
		{str("pen"), 9, "Order-pen", "ok", "170/9"},
		{str("bad"), 1, "Order-bad", "error", "170/1"},
		{append([]byte{}, 0), 0, "order", "unset", "170/0"}, // a null name: the target's
	} {
		t.Run(tt.wantName, func(t *testing.T) {
			f := newFixture(t)
			f.tr.Shapes = rules
			f.feed(rec{kind: capture.KindEnter, flags: capture.FlagRoot | capture.FlagValues, fn: 1, trace: traceA, vals: append(i4(170), tt.arg...), time: 100},
				rec{kind: capture.KindEnter, flags: capture.FlagValues, fn: 1, vals: append(i4(1), str("inner")...), time: 110, pos: 64},
				rec{kind: capture.KindLeave, flags: capture.FlagValues, fn: 1, vals: i4(-5), time: 120},
				rec{kind: capture.KindLeave, flags: capture.FlagValues, fn: 1, vals: i4(tt.ret), time: 200})
			spans := f.spans(t)
			s, ok := spans[tt.wantName]
			if !ok {
				t.Fatalf("no span %s in %v", tt.wantName, spans)
			}
			a := s.Attrs
			if s.Kind != "server" || a["order.key"] != tt.wantKey || a["code.function.name"] != "App.Shop.Order" {
				t.Errorf("span %s %v", s.Kind, a)
			}
			if tags, ok := a["tags"].([]any); !ok || len(tags) != 2 || tags[0] != "a" {
				t.Errorf("tags = %#v", a["tags"])
			}
			if s.StatusCode != tt.wantStatus {
				t.Errorf("status %s %q, want %s", s.StatusCode, s.StatusMsg, tt.wantStatus)
			}
			inner, ok := spans["Order-inner"]
			if !ok || inner.Attrs["order.key"] != "1/-5" || inner.Attrs["name.length"] != int64(5) || inner.StatusCode != "unset" {
				t.Errorf("the inner call, with its own arguments: %+v", inner)
			}
		})
	}
}
