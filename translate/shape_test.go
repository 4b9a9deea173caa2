package translate

import (
	"encoding/binary"
	"github.com/clrotel/clrotel/values"
	"reflect"
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

const asyncRules = `instrumentation/development:
  dotnet:
    no_code:
      targets:
        - target:
            type: App.Shop
            method: OrderAsync
            signature:
              return_type: System.Threading.Tasks.Task` + "`" + `1[System.Int32]
              parameter_types: [System.Int32]
          span:
            name: order-async
            attributes:
              - {name: order.id, value_source: "arguments[0]", type: int}
              - {name: order.result, value_source: "return", type: int}
              - {name: order.key, value_source: "string(arguments[0]) + \"/\" + string(return)", type: string}
            status:
              rules:
                - {condition: "return < 0", code: error, description: "order refused"}
                - {condition: "return > 0", code: ok}
`

// TestShapingAsync: an async method's status rules and the attributes
// reading its return value are evaluated on its task's result when the
// task completes (the same value dotnet.return shows, with the arguments
// the call began with), whether the task completes after its call returns
// or inside it; a task that fails keeps the exception's error and gets
// none of them; a span that ends with its call (no state machine carried
// it) is shaped at its return, over the task.
func TestShapingAsync(t *testing.T) {
	rules, err := shaping.Parse("otel.yaml", []byte(asyncRules))
	if err != nil {
		t.Fatal(err)
	}
	sid := [8]byte{0xee}
	kickoff := rec{kind: capture.KindEnter, flags: capture.FlagRoot | capture.FlagSpanID | capture.FlagValues, fn: 7, trace: traceA, span: sid, vals: i4(170), time: 100}
	task := str("Task{Status=WaitingForActivation}")
	kickoffLeave := rec{kind: capture.KindLeave, flags: capture.FlagValues, fn: 7, vals: task, time: 150}
	moveNext := rec{kind: capture.KindEnter, flags: capture.FlagResume, fn: 9, trace: traceA, span: sid, time: 110}
	setResult := func(v int32, at int64) []rec {
		return []rec{{kind: capture.KindEnter, flags: capture.FlagResume | capture.FlagAsyncEnd | capture.FlagValues, fn: 6, trace: traceA, span: sid, vals: append(str("builder"), i4(v)...), time: at},
			{kind: capture.KindLeave, fn: 6, time: at + 1}}
	}
	after := func(v int32) []rec {
		return append([]rec{kickoff, kickoffLeave, moveNext}, append(setResult(v, 300), rec{kind: capture.KindLeave, fn: 9, time: 310})...)
	}
	inside := func(v int32) []rec {
		return append(append([]rec{kickoff, moveNext}, setResult(v, 120)...), rec{kind: capture.KindLeave, fn: 9, time: 130}, kickoffLeave)
	}
	for _, tt := range []struct {
		name       string
		recs       []rec
		wantStatus string
		wantAttrs  map[string]any
	}{
		{"completed after the call", after(9), "ok", map[string]any{"order.id": int64(170), "order.result": int64(9), "order.key": "170/9", "dotnet.return": int64(9)}},
		{"refused after the call", after(-1), "error", map[string]any{"order.result": int64(-1), "order.key": "170/-1", "dotnet.return": int64(-1)}},
		{"completed inside the call", inside(5), "ok", map[string]any{"order.result": int64(5), "order.key": "170/5", "dotnet.return": int64(5)}},
		{"failed", []rec{kickoff, kickoffLeave,
			{kind: capture.KindEnter, flags: capture.FlagResume | capture.FlagAsyncEnd, fn: 5, trace: traceA, span: sid, time: 300},
			{kind: capture.KindLeave, fn: 5, time: 301}}, "error", map[string]any{"order.id": int64(170), "order.result": nil, "order.key": nil}},
		{"ended with its call", []rec{kickoff, {kind: capture.KindLeave, flags: capture.FlagValues | capture.FlagSyncEnd, fn: 7, vals: task, time: 150}},
			"unset", map[string]any{"order.result": nil, "order.key": "170/Task{Status=WaitingForActivation}", "dotnet.return": "Task{Status=WaitingForActivation}"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.tr.Shapes = rules
			f.feed(tt.recs...)
			s, ok := f.spans(t)["order-async"]
			if !ok {
				t.Fatalf("no span order-async in %v", f.spans(t))
			}
			for k, want := range tt.wantAttrs {
				if got := s.Attrs[k]; got != want {
					t.Errorf("%s = %#v, want %#v (all: %v)", k, got, want, s.Attrs)
				}
			}
			if s.StatusCode != tt.wantStatus || tt.wantStatus == "error" && tt.name == "refused after the call" && s.StatusMsg != "order refused" {
				t.Errorf("status %s %q, want %s", s.StatusCode, s.StatusMsg, tt.wantStatus)
			}
		})
	}
}

// TestShapingArrays: an array argument captured whole indexes and gives
// array attributes of its element type, at the call's beginning and, from
// an async method's result, at its task's end; one cut short gives none.
func TestShapingArrays(t *testing.T) {
	rules, err := shaping.Parse("otel.yaml", []byte(`instrumentation/development:
  dotnet:
    no_code:
      targets:
        - target: {type: App.Shop, method: Tag}
          span:
            name: tag
            attributes:
              - {name: tags, value_source: "arguments[0]", type: string_array}
              - {name: tags.first, value_source: "arguments[0][0]", type: string}
              - {name: tags.ints, value_source: "arguments[0]", type: int_array}
        - target: {type: App.Shop, method: OrderAsync}
          span:
            name: order-async
            attributes:
              - {name: result, value_source: "return", type: int_array}
            status:
              rules:
                - {condition: "return[1] == 2", code: ok}
`))
	if err != nil {
		t.Fatal(err)
	}
	strArr := func(n uint32, elems ...string) []byte {
		b := binary.LittleEndian.AppendUint64([]byte{6}, 0x30)
		b = append(b, 1)
		b = binary.LittleEndian.AppendUint32(b, n)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(elems)))
		for _, e := range elems {
			b = append(b, str(e)...)
		}
		return b
	}
	for _, tt := range []struct {
		name string
		arg  []byte
		want []any
	}{
		{"whole", strArr(2, "a", "b"), []any{"a", "b"}},
		{"cut short", strArr(40, "a", "b"), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.tr.Shapes = rules
			f.tr.Render.Classes = classInfos{0x30: {Name: "String[]", Elem: "String"}, 0x31: {Name: "Int32[]", Elem: "Int32"}}
			f.feed(rec{kind: capture.KindEnter, flags: capture.FlagRoot | capture.FlagValues, fn: 8, trace: traceA, vals: tt.arg, time: 100},
				rec{kind: capture.KindLeave, fn: 8, time: 200})
			a := f.spans(t)["tag"].Attrs
			if tags, _ := a["tags"].([]any); !reflect.DeepEqual(tags, tt.want) || a["tags.ints"] != nil {
				t.Errorf("tags %#v, ints %#v", a["tags"], a["tags.ints"])
			}
			if first := a["tags.first"]; tt.want != nil && first != "a" || tt.want == nil && first != nil {
				t.Errorf("tags.first = %#v", first)
			}
		})
	}
	t.Run("an async result", func(t *testing.T) {
		f := newFixture(t)
		f.tr.Shapes = rules
		f.tr.Render.Classes = classInfos{0x31: {Name: "Int32[]", Elem: "Int32"}}
		ints := binary.LittleEndian.AppendUint64([]byte{6}, 0x31)
		ints = binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(append(ints, 1), 2), 2)
		ints = append(append(ints, i4(1)...), i4(2)...)
		sid := [8]byte{0xee}
		f.feed(rec{kind: capture.KindEnter, flags: capture.FlagRoot | capture.FlagSpanID, fn: 7, trace: traceA, span: sid, time: 100},
			rec{kind: capture.KindLeave, fn: 7, time: 150},
			rec{kind: capture.KindEnter, flags: capture.FlagResume | capture.FlagAsyncEnd | capture.FlagValues, fn: 6, trace: traceA, span: sid, vals: append(str("builder"), ints...), time: 300},
			rec{kind: capture.KindLeave, fn: 6, time: 301})
		s := f.spans(t)["order-async"]
		if r, _ := s.Attrs["result"].([]any); !reflect.DeepEqual(r, []any{int64(1), int64(2)}) || s.StatusCode != "ok" {
			t.Errorf("result %#v, status %s (%v)", s.Attrs["result"], s.StatusCode, s.Attrs)
		}
	})
}

type classInfos map[uint64]values.ClassInfo

func (c classInfos) Class(id uint64) (values.ClassInfo, bool) { ci, ok := c[id]; return ci, ok }
