package shaping

import (
	"fmt"
	"github.com/clrotel/clrotel/naming"
	"reflect"
	"strings"
	"testing"
)

// upstream is the complete example of upstream's docs/nocode-instrumentation.md,
// with kind server, a static attribute, and the file's other sections
// around it.
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
              - name: operation.name
                value_source: "\"ProcessOrder-\" + arguments[0].OrderType"
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
		!reflect.DeepEqual(tg.ParamTypes, []string{"MyApp.Models.OrderRequest"}) || len(tg.Attrs) != 5 || len(tg.Status) != 3 {
		t.Fatalf("target %+v", tg)
	}
	if a := tg.Attrs[2]; a.Value != "orders" || a.Expr != nil {
		t.Errorf("static attribute %+v", a)
	}
	if a := tg.Attrs[3]; !a.AtReturn || tg.Attrs[0].AtReturn || tg.Attrs[4].AtReturn {
		t.Errorf("evaluated at return: %v, %v, %v", a.AtReturn, tg.Attrs[0].AtReturn, tg.Attrs[4].AtReturn)
	}
	if got := tg.Attrs[4].Expr.Eval(env{"arguments[0].OrderType": "Express"}); got != "ProcessOrder-Express" {
		t.Errorf("operation.name = %#v", got)
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

// Every problem of a file, with its line and column; what upstream's
// language does not have is rejected where it is.
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
            name_source: "method +"
            attributes:
              - name: a
                value_source: "arguments[0].Name ? arguments[0].Name"
              - name: b
                value_source: startsWith(arguments[0])
              - name: c
                value_source: "arguments[0] ++ return"
              - name: d
                value_source: lower(arguments[0])
              - name: e
                value: 1
                type: int_array
              - name: f
                value_source: arguments[0]
                type: long_array
              - name: g
                value_source: "self.Name"
              - name: h
                value_source: "3000000000 > arguments[0]"
              - name: i
                value_source: "'a\\q'"
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
		`f.yaml:12:35: targets.0.span.name_source: the expression ends too soon in "method +"`,
		`f.yaml:15:69: targets.0.span.attributes.0.value_source: want :; the expression ends`,
		`f.yaml:17:31: targets.0.span.attributes.1.value_source: startsWith() takes 2 argument(s); found 1`,
		`f.yaml:19:46: targets.0.span.attributes.2.value_source: unexpected "+"`,
		`f.yaml:21:31: targets.0.span.attributes.3.value_source: unknown function lower()`,
		`f.yaml:23:24: targets.0.span.attributes.4.value: want a int list; found "1"`,
		`f.yaml:27:23: targets.0.span.attributes.5.type: want string, bool, int, double, string_array, bool_array, int_array or double_array; found "long_array"`,
		`f.yaml:29:32: targets.0.span.attributes.6.value_source: unknown identifier "self"`,
		`f.yaml:31:32: targets.0.span.attributes.7.value_source: the number 3000000000 is out of the range of a 32-bit int`,
		`f.yaml:33:34: targets.0.span.attributes.8.value_source: the escape \q is not one of`,
		`f.yaml:38:19: targets.0.span.status.rules.1.code: want ok, error or unset; found "maybe"`,
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

// upstreamTestApp is the start of upstream's
// test/test-applications/integrations/TestApplication.NoCode/config.yaml:
// static attributes of every type, arrays included.
const upstreamTestApp = `file_format: "1.0"
instrumentation/development:
  dotnet:
    no_code:
      targets:
        - target:
            assembly:
              name: TestApplication.NoCode
            type: TestApplication.NoCode.NoCodeTestingClass
            method: TestMethodStatic
            signature:
              return_type: System.Void
              parameter_types:
          span:
             name: Span-TestMethodStatic
             kind: internal
             attributes:
               - name: attribute_key_string
                 value: "string_value"
                 type: string
               - name: attribute_key_bool
                 value: true
                 type: bool
               - name: attribute_key_int
                 value: 12345
                 type: int
               - name: attribute_key_double
                 value: 123.45
                 type: double
               - name: attribute_key_string_array
                 value: ["value1", "value2", "value3"]
                 type: string_array
               - name: attribute_key_bool_array
                 value: [true, false, true]
                 type: bool_array
               - name: attribute_key_int_array
                 value: [123, 456, 789]
                 type: int_array
               - name: attribute_key_double_array
                 value: [123.45, 678.90]
                 type: double_array
`

func TestStaticAttributes(t *testing.T) {
	r, err := Parse("config.yaml", []byte(upstreamTestApp))
	if err != nil {
		t.Fatal(err)
	}
	want := []any{"string_value", true, int64(12345), 123.45, []string{"value1", "value2", "value3"},
		[]bool{true, false, true}, []int64{123, 456, 789}, []float64{123.45, 678.90}}
	attrs := r.Targets[0].Attrs
	if len(attrs) != len(want) || !r.Targets[0].HasSignature || len(r.Targets[0].ParamTypes) != 0 {
		t.Fatalf("target %+v", r.Targets[0])
	}
	for i, a := range attrs {
		if !reflect.DeepEqual(a.Value, want[i]) {
			t.Errorf("%s = %#v, want %#v", a.Name, a.Value, want[i])
		}
	}
}

// env is a call's values for tests: keys as root[index].Member.
type env map[string]any

func (e env) Value(root string, index int, members []string) (any, bool) {
	key := root
	if root == "arguments" {
		key += "[" + string(rune('0'+index)) + "]"
	}
	for _, m := range members {
		key += "." + m
	}
	for k, v := range e {
		if strings.EqualFold(k, key) {
			return v, true
		}
	}
	return nil, false
}
func (e env) Args() int      { return 3 }
func (e env) Method() string { return "ProcessOrder" }
func (e env) Type() string   { return "Acme.Orders" }

// TestEval: upstream's operators, functions and null semantics (cases in
// the spirit of its CelExpressionTests, CelOperatorPrecedenceTests and
// docs' examples), over values clrotel captured; what was not captured is
// null.
func TestEval(t *testing.T) {
	vals := env{"arguments[0]": int64(42), "arguments[1].Name": "ann", "arguments[1].Age": int64(17),
		"arguments[1].Path": "/api/users", "arguments[2]": Collection{Text: "String[2]{\"a\", \"b\"}", Size: 2, Elems: []string{"a", "b"}},
		"return.Ids": Collection{Size: 2, Elems: []int64{7, 9}}, "instance.Items": Collection{Text: "[1, 2, …](40)", Size: 40},
		"return.Status": "Failed", "return.Total": 12.5, "return.Ok": false, "return.Message": "an error occurred",
		"instance.ServiceName": "orders", "return": "x"}
	null := env{"return": nil, "arguments[0]": nil}
	for _, c := range []struct {
		src  string
		want any
		in   env
	}{
		{src: "arguments[0]", want: int64(42)},
		{src: "arguments[0] == 42", want: true},
		{src: "arguments[0] == 42.0", want: true},
		{src: "arguments[0] >= 42.5", want: false},
		{src: "arguments[1].Name == 'ann' && arguments[0] > 40", want: true},
		{src: "arguments[1].name", want: "ann"}, // members ignore case, as .NET reflection with IgnoreCase
		{src: "arguments[1].Missing", want: nil},
		{src: "arguments[1].Missing == null", want: true},
		{src: "arguments[1].Name.Length", want: int64(3)},
		{src: "arguments[2].Length", want: int64(2)},
		{src: "arguments[2][0]", want: "a"},
		{src: "arguments[2][1] == \"b\"", want: true},
		{src: "arguments[2][2]", want: nil},
		{src: "arguments[2][0 + 0]", want: nil}, // as upstream, a double is not an index
		{src: "return.Ids[1] > 8", want: true},
		{src: "instance.Items[0]", want: nil}, // a collection's elements are not kept
		{src: "instance.Items.Count", want: int64(40)},
		{src: "arguments[7]", want: nil},
		{src: "arguments[-1]", want: nil},
		{src: "arguments[\"0\"]", want: nil},
		{src: "arguments[2 - 2]", want: nil}, // arithmetic gives a double, not an index
		{src: "arguments[1 > 0 ? 0 : 1]", want: int64(42)},
		{src: "size(arguments)", want: int64(3)},
		{src: "return.Status != \"Completed\"", want: true},
		{src: "!return.Ok || return.Total < 10", want: true},
		{src: "(return.Total > 10) == true", want: true},
		{src: "method == \"ProcessOrder\" && type == \"Acme.Orders\"", want: true},
		{src: "return.Status < 1", want: false},
		{src: "1 < 2 < 3", want: false}, // (true) < 3: not ordered
		// Upstream's precedence.
		{src: "true || false && false", want: true},
		{src: "false && false || true", want: true},
		{src: "true && false ? \"a\" : \"b\"", want: "b"},
		{src: "1 + 2 * 3", want: 7.0},
		{src: "(1 + 2) * 3", want: 9.0},
		{src: "10 - 2 - 3", want: 5.0},
		{src: "7 % 4", want: 3.0},
		{src: "1 / 0", want: nil},
		{src: "-arguments[0]", want: int64(-42)},
		{src: "-5 + 2", want: -3.0},
		{src: "arguments[0] -1", want: 41.0},
		{src: "-\"hello\"", want: nil},
		{src: "!!\"\"", want: false},
		// + concatenates strings; a string and a number give null.
		{src: "type + \".\" + method", want: "Acme.Orders.ProcessOrder"},
		{src: "\"hello\" + 123", want: nil},
		{src: "\"Transaction-\" + string(arguments[0])", want: "Transaction-42"},
		{src: "\"hello\" - \"world\"", want: nil},
		// The conditional, with truthy conditions.
		{src: "arguments[1].Age >= 18 ? \"adult\" : \"minor\"", want: "minor"},
		{src: "arguments[1].Nick ? arguments[1].Nick : \"unknown\"", want: "unknown"},
		{src: "return.Ok ? \"ok\" : return.Total > 10 ? \"big\" : \"small\"", want: "big"},
		// Functions.
		{src: "string(123)", want: "123"},
		{src: "string(return.Ok)", want: "False"},
		{src: "string(return.Total)", want: "12.5"},
		{src: "string(null)", want: ""},
		{src: "size(\"hello\")", want: int64(5)},
		{src: "size(\"h\u00e9llo\")", want: int64(5)},
		{src: "size(null)", want: nil},
		{src: "size(arguments[0])", want: nil},
		{src: "size(arguments[2]) > 1", want: true},
		{src: "startsWith(arguments[1].Path, \"/api/\")", want: true},
		{src: "endsWith(arguments[1].Path, \".json\")", want: false},
		{src: "contains(return.Message, \"error\")", want: true},
		{src: "contains(return.Missing, \"\")", want: false},
		{src: "startsWith(\"Hello\", \"hello\")", want: false}, // ordinal
		{src: "string(size(arguments[2]))", want: "2"},
		{src: "instance.ServiceName", want: "orders"},
		{src: "\"line1\\nline2\\ttab\"", want: "line1\nline2\ttab"},
		// Null and absent: null operands give null or false; as upstream,
		// <= and >= are "not > " and "not <", so they hold for null.
		{src: "return == null", want: true, in: null},
		{src: "return != null", want: false, in: null},
		{src: "return.Status", want: nil, in: null},
		{src: "return.Status == \"Failed\"", want: false, in: null},
		{src: "return.Total > 10", want: false, in: null},
		{src: "return.Total <= 10", want: true, in: null},
		{src: "arguments[0] + 1", want: nil, in: null},
		{src: "instance", want: nil, in: null},
		{src: "!return", want: true, in: null},
		{src: "false && return.Deep.Deeper.Deepest", want: false, in: null},
		{src: "arguments[1].Deep.Deeper.Deepest", want: nil},
	} {
		e, err := ParseExpr(c.src)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		in := vals
		if c.in != nil {
			in = c.in
		}
		if got := e.Eval(in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.src, got, c.want)
		}
	}
}

// TestParseExprErrors: what upstream's lexer and parser reject, and what
// it accepts but can only evaluate to a constant, with the column.
func TestParseExprErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"this is not valid CEL", `column 1: unknown identifier "this"`},
		{"return is not valid", `column 8: unexpected "is"`},
		{"(arguments[0]", "column 14: want ); the expression ends"},
		{"arguments[0", "column 12: want ]; the expression ends"},
		{"a ? b", `column 1: unknown identifier "a"`},
		{"return ? 1", "column 11: want :; the expression ends"},
		{"1 ? 2 ? 3 : 4 : 5", `column 7: want :; found "?"`}, // the true branch needs parentheses
		{"unknownFunction(\"test\")", "column 1: unknown function unknownFunction()"},
		{"string()", "column 1: string() takes 1 argument(s); found 0"},
		{"contains(\"hello\")", "column 1: contains() takes 2 argument(s); found 1"},
		{"return.Name.Trim()", `column 17: unexpected "("`},
		{"'unterminated", "column 1: unterminated string"},
		{"'bad \\x escape'", "column 6: the escape \\x"},
		{"1.2.3", `column 1: bad number "1.2.3"`},
		{"2147483648", "column 1: the number 2147483648 is out of the range of a 32-bit int"},
		{"return.", "column 8: want a member's name after ."},
		{"return # 1", "column 8: unexpected character '#'"},
		{"é = 1", `column 3: unexpected character '='`},
		{"", "column 1: the expression ends too soon"},
	} {
		_, err := ParseExpr(c.src)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s", c.src, err, c.want)
		}
	}
	for _, ok := range []string{"-2147483648", "arguments[0] != null && return.Success", "size(arguments[0].Items) > 0 ? 1 : 0"} {
		if _, err := ParseExpr(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
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
		{int64(3), "string", "3", true}, {"7", "int", int64(7), true}, {" 7 ", "int", int64(7), true}, {"x", "int", nil, false},
		{2.5, "int", nil, false}, {3.0, "int", int64(3), true}, {int64(2), "double", 2.0, true}, {"1e3", "double", 1000.0, true},
		{"0x10", "double", nil, false}, {true, "double", nil, false}, {"true", "bool", true, true}, {"TRUE", "bool", true, true},
		{"1", "bool", nil, false}, {int64(1), "bool", nil, false}, {nil, "string", nil, false}, {true, "string", "True", true},
		{1e20, "string", "1E+20", true}, {1e-7, "string", "1E-07", true}, {0.0001, "string", "0.0001", true},
		{123456789012345.0, "string", "123456789012345", true}, {Collection{Text: "Int32[1]{7}", Size: 1}, "string", "Int32[1]{7}", true},
	} {
		got, ok := Convert(c.v, c.typ)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("Convert(%#v, %s) = %#v, %v", c.v, c.typ, got, ok)
		}
	}
	// Array types: the elements of an array of the type's own, as upstream
	// (an int[] or long[] for int_array; no list; no text).
	ints, strs := Collection{Size: 2, Elems: []int64{1, 2}}, Collection{Text: "String[1]{\"a\"}", Size: 1, Elems: []string{"a"}}
	for _, c := range []struct {
		v    any
		typ  string
		want any
	}{
		{strs, "string_array", []string{"a"}}, {ints, "int_array", []int64{1, 2}},
		{Collection{Elems: []float64{1.5}}, "double_array", []float64{1.5}}, {Collection{Elems: []bool{true}}, "bool_array", []bool{true}},
		{ints, "double_array", nil}, {strs, "int_array", nil}, {ints, "string_array", nil},
		{Collection{Text: "[1, 2](2)", Size: 2}, "int_array", nil}, {"a,b", "string_array", nil}, {nil, "bool_array", nil},
	} {
		got, ok := Convert(c.v, c.typ)
		if ok != (c.want != nil) || ok && !reflect.DeepEqual(got, c.want) {
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

// An expression's error points into the file where the expression is
// written, escapes and quotes counted: at the first occurrence of at in the
// line (past the key).
func TestExprErrorColumns(t *testing.T) {
	for _, c := range []struct{ value, at string }{
		{`"\"Order-\" + arguments[0] +"`, `"` + "\n"}, // the end: the closing quote
		{`'"it''s" + nope'`, "nope"},
		{`arguments[0] ++ 1`, "+ 1"},
		{`"\"a\\b\" == return"`, `\\b`},
		{`"\"\t\" == nope"`, "nope"},
	} {
		const key = "            name_source: "
		line := key + c.value
		file := "instrumentation/development:\n  dotnet:\n    no_code:\n      targets:\n        - target: {type: A, method: B}\n          span:\n            name: x\n" + line + "\n"
		want := fmt.Sprintf("f.yaml:8:%d:", strings.Index(c.value+"\n", c.at)+len(key)+1)
		_, err := Parse("f.yaml", []byte(file))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %s", c.value, err, want)
		}
	}
}

// Targets select methods by upstream's metadata form (its test app's
// config.yaml: GenericNoCodeTestingClass`2, !!0, Task`1[System.Int32]) or
// by clrotel's names; a generic method's name is its own, without its
// arguments.
func TestMatchMetadataForm(t *testing.T) {
	generic := MethodDesc{Assembly: "TestApplication.NoCode", Type: "TestApplication.NoCode.GenericNoCodeTestingClass<TFooClass, TBarClass>",
		Method: "GenericTestMethod<TFooMethod, TBarMethod>", ReturnType: "TFooMethod", ParamTypes: []string{"TFooMethod", "TBarMethod", "TFooClass", "TBarClass"},
		Meta: &naming.MetaForm{Type: "TestApplication.NoCode.GenericNoCodeTestingClass`2", Method: "GenericTestMethod", ReturnType: "!!0", ParamTypes: []string{"!!0", "!!1", "!0", "!1"}}}
	async := MethodDesc{Type: "TestApplication.NoCode.NoCodeTestingClass", Method: "IntTaskTestMethodAsync", ReturnType: "System.Threading.Tasks.Task<Int32>",
		Meta: &naming.MetaForm{Type: "TestApplication.NoCode.NoCodeTestingClass", Method: "IntTaskTestMethodAsync", ReturnType: "System.Threading.Tasks.Task`1[System.Int32]"}}
	nested := MethodDesc{Type: "Acme.Outer.Inner", Method: "Put", ReturnType: "Void", ParamTypes: []string{"System.Collections.Generic.List<String>", "Int32[]"},
		Meta: &naming.MetaForm{Type: "Acme.Outer+Inner", Method: "Put", ReturnType: "System.Void", ParamTypes: []string{"System.Collections.Generic.List`1[System.String]", "System.Int32[]"}}}
	for _, c := range []struct {
		name   string
		target string // type, method, return type, parameter types: |-separated
		m      MethodDesc
		want   bool
	}{
		{"upstream's generic target", "TestApplication.NoCode.GenericNoCodeTestingClass`2|GenericTestMethod|!!0|!!0,!!1,!0,!1", generic, true},
		{"type parameter for method parameter", "TestApplication.NoCode.GenericNoCodeTestingClass`2|GenericTestMethod|!!0|!0,!!1,!0,!1", generic, false},
		{"arity missing", "TestApplication.NoCode.GenericNoCodeTestingClass|GenericTestMethod|!!0|!!0,!!1,!0,!1", generic, false},
		{"clrotel's names", "TestApplication.NoCode.GenericNoCodeTestingClass<TFooClass, TBarClass>|GenericTestMethod|TFooMethod|TFooMethod,TBarMethod,TFooClass,TBarClass", generic, true},
		{"no signature", "TestApplication.NoCode.GenericNoCodeTestingClass`2|GenericTestMethod", generic, true},
		{"glob", "*.GenericNoCodeTestingClass*|Generic*", generic, true},
		{"Task`1[System.Int32]", "TestApplication.NoCode.NoCodeTestingClass|IntTaskTestMethodAsync|System.Threading.Tasks.Task`1[System.Int32]|", async, true},
		{"Task<Int32>", "TestApplication.NoCode.NoCodeTestingClass|IntTaskTestMethodAsync|System.Threading.Tasks.Task<Int32>|", async, true},
		{"Task`1[System.Int64]", "TestApplication.NoCode.NoCodeTestingClass|IntTaskTestMethodAsync|System.Threading.Tasks.Task`1[System.Int64]|", async, false},
		{"nested", "Acme.Outer+Inner|Put|System.Void|System.Collections.Generic.List`1[System.String],System.Int32[]", nested, true},
		{"nested, clrotel's names", "Acme.Outer.Inner|Put||System.Collections.Generic.List<String>,System.Int32[]", nested, true},
		{"nested, forms mixed per type", "Acme.Outer+Inner|Put|System.Void|System.Collections.Generic.List<String>,System.Int32[]", nested, true},
		{"nested, wrong element", "Acme.Outer+Inner|Put|System.Void|System.Collections.Generic.List`1[System.Object],System.Int32[]", nested, false},
		{"no metadata form known", "Acme.Outer+Inner|Put", MethodDesc{Type: "Acme.Outer.Inner", Method: "Put"}, false},
	} {
		parts := strings.Split(c.target, "|")
		tg := &Target{Type: parts[0], Method: parts[1]}
		if len(parts) > 2 {
			tg.HasSignature, tg.ReturnType = true, parts[2]
			if parts[3] != "" {
				tg.ParamTypes = strings.Split(parts[3], ",")
			}
		}
		if got := (&Rules{Targets: []*Target{tg}}).Match(c.m) != nil; got != c.want {
			t.Errorf("%s: matched %v", c.name, got)
		}
	}
}

// A target reads array elements when an expression indexes an array
// other than arguments, or an attribute of an array type comes from an
// expression.
func TestReadsElements(t *testing.T) {
	for src, want := range map[string]bool{
		`{name: a, value_source: "arguments[0]", type: string}`:          false,
		`{name: a, value_source: "arguments[0]", type: string_array}`:    true,
		`{name: a, value: [x], type: string_array}`:                      false,
		`{name: a, value_source: "arguments[0][1]", type: string}`:       true,
		`{name: a, value_source: "return.Items[0].Name", type: string}`:  true,
		`{name: a, value_source: "arguments[1 > 0 ? 0 : 1]", type: int}`: false,
	} {
		r, err := Parse("f.yaml", []byte("instrumentation/development:\n  dotnet:\n    no_code:\n      targets:\n        - target: {type: A, method: M}\n          span:\n            name: m\n            attributes:\n              - "+src+"\n"))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := r.Targets[0].ReadsElements(); got != want {
			t.Errorf("%s: ReadsElements = %v", src, got)
		}
	}
}
