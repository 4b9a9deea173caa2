package e2e

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/otlpsink"
)

// one returns the single span whose name contains part.
func one(t *testing.T, spans []otlpsink.Span, part string) otlpsink.Span {
	t.Helper()
	var found []otlpsink.Span
	for _, s := range spans {
		if strings.Contains(s.Name, part) {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d spans contain %q, want 1:\n%s", len(found), part, dumpSpans(spans))
	}
	return found[0]
}

func TestValues(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Values", nil, runOpts{profiler: true})
		if r.ExitCode != 0 || !strings.Contains(r.Stdout, "done 5 2 changed") {
			t.Fatalf("exit %d, stdout %q\n%s", r.ExitCode, r.Stdout, r.Stderr)
		}
		S := func(part string) map[string]any { return one(t, r.Spans, part).Attrs }
		tests := []struct {
			span, key string
			want      any
		}{
			{"Calls.Ints(", "dotnet.arg.a", int64(-42)},
			{"Calls.Ints(", "dotnet.arg.b", int64(math.MinInt64)},
			{"Calls.Ints(", "dotnet.arg.c", int64(32767)},
			{"Calls.Ints(", "dotnet.arg.d", int64(-1)},
			{"Calls.Unsigned(", "dotnet.arg.big", "18446744073709551615"},
			{"Calls.Unsigned(", "dotnet.arg.u", int64(4294967295)},
			{"Calls.Unsigned(", "dotnet.return", "18446744073709551615"},
			{"Calls.Floats(", "dotnet.arg.f", 1.5},
			{"Calls.Floats(", "dotnet.arg.neg", -2.25},
			{"Calls.Floats(", "dotnet.return", -2.25},
			{"Calls.Chars(", "dotnet.arg.c", "é"},
			{"Calls.Chars(", "dotnet.arg.yes", true},
			{"Calls.Chars(", "dotnet.arg.no", false},
			{"Calls.Strings(", "dotnet.arg.s", "hello"},
			{"Calls.Strings(", "dotnet.arg.empty", ""},
			{"Calls.Strings(", "dotnet.arg.nul.null", true},
			{"Calls.Strings(", "dotnet.arg.nonBmp", "a\U0001F600b"},
			{"Calls.Big(", "dotnet.arg.huge", strings.Repeat("x", 256)},
			{"Calls.Big(", "dotnet.arg.huge.length", int64(1 << 20)},
			{"Calls.Arrays(", "dotnet.arg.ints", "Int32[3]{1, 2, 3}"},
			{"Calls.Arrays(", "dotnet.arg.strs", `String[3]{"a", null, "c"}`},
			{"Calls.Arrays(", "dotnet.arg.items", `Acme.Values.Item[2]{Acme.Values.Item{Id=7, Tag="base", Name="pen", Price=1.5, Color=Green}, null}`},
			{"Calls.Arrays(", "dotnet.arg.grid", "Int32[2,3]{0, 0, 0, 0, 0, 0}"},
			{"Calls.Huge(", "dotnet.arg.many", "Int32[10000000]{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, …}"},
			{"Calls.Huge(", "dotnet.arg.many.length", int64(10000000)},
			{"Calls.Objects(", "dotnet.arg.item", `Acme.Values.Item{Id=7, Tag="base", Name="book", Price=12.25, Color=Green}`},
			{"Calls.Objects(", "dotnet.arg.item.Price", 12.25},
			{"Calls.Objects(", "dotnet.arg.item.Color", "Green"},
			{"Calls.Objects(", "dotnet.arg.nothing.null", true},
			{"Calls.Cycle(", "dotnet.arg.node", `Acme.Values.Node{Name="loop", Next=<cycle>}`},
			{"Calls.Struct(", "dotnet.arg.p", "Geometry.Point{X=3, Y=4}"},
			{"Calls.Struct(", "dotnet.arg.p.Y", int64(4)},
			{"Calls.Boxed(", "dotnet.arg.o", int64(42)},
			{"Calls.Boxed(", "dotnet.arg.s", "str"},
			{"Echo<Int32>(", "dotnet.arg.value", int64(5)},
			{"Echo<Int32>(", "dotnet.return", int64(5)},
			{"Echo<String>(", "dotnet.arg.value", "generic"},
			{"Echo<String>(", "dotnet.return", "generic"},
			{"Echo<Acme.Values.Item>(", "dotnet.arg.value.Name", "gen"},
			{"Calls.Refs(", "dotnet.arg.r", int64(1)},
			{"Calls.Refs(", "dotnet.arg.rs", "before"},
			{"Calls.Login(", "dotnet.arg.user", "ada"},
			{"Calls.Login(", "dotnet.arg.password", "***"},
			{"Calls.Nested(", "dotnet.arg.account", `Acme.Values.Account{User="ada", Creds=Acme.Values.Credentials{Login="ada", Password=***}}`},
			{"Calls.GetApiKey(", "dotnet.return", "***"},
			{"Calls.set_ApiToken(", "dotnet.arg.value", "***"},
			{"Calls.MakePoint(", "dotnet.return", "Geometry.Point{X=5, Y=6}"},
			{"Calls.Paint(", "dotnet.arg.c", "Red"},
			{"Calls.Paint(", "dotnet.arg.c.value", int64(1)},
			{"Calls.Paint(", "dotnet.return", "Blue"},
			{"Calls.Instance(", "dotnet.this", `Acme.Values.Calls{Label="calls", ApiToken=***}`},
			{"Calls.Instance(", "dotnet.return", int64(8)},
			{"Calls.Maybe(", "dotnet.arg.some", int64(5)},
			{"Calls.Maybe(", "dotnet.arg.none", "null"},
			{"Calls.Maybe(", "dotnet.arg.none.null", true},
			{"Calls.Pairs(", "dotnet.arg.kv", `["k"]=3`},
		}
		for _, tt := range tests {
			if got := S(tt.span)[tt.key]; got != tt.want {
				t.Errorf("%s %s = %#v, want %#v", tt.span, tt.key, got, tt.want)
			}
		}
		floats := S("Calls.Floats(")
		if v, _ := floats["dotnet.arg.nan"].(float64); !math.IsNaN(v) {
			t.Errorf("nan = %v", floats["dotnet.arg.nan"])
		}
		if v, _ := floats["dotnet.arg.inf"].(float64); !math.IsInf(v, 1) {
			t.Errorf("inf = %v", floats["dotnet.arg.inf"])
		}
		// out parameters are not read on entry.
		if _, ok := S("Calls.Refs(")["dotnet.arg.o"]; ok {
			t.Error("out parameter captured on entry")
		}
		// A 16-byte struct comes back in two registers: read exactly where
		// the runtime reports both (.NET 6+), not at all before.
		pair := S("Calls.MakePair(")
		if rt.Name == "net3.1" {
			if _, ok := pair["dotnet.return"]; ok {
				t.Errorf("3.1 struct return captured: %v", pair["dotnet.return"])
			}
		} else if pair["dotnet.return"] != "Acme.Values.Pair{A=10, B=20}" {
			t.Errorf("MakePair return %v", pair["dotnet.return"])
		}
		// A dictionary entry or a KeyValuePair with a sensitive key shows
		// its key, not its value.
		if kv := byName(r.Spans, "Values.exe!Acme.Values.Calls.Settings(System.Collections.Generic.Dictionary<String, String> settings, System.Collections.Generic.KeyValuePair<String, String> one)"); len(kv) != 3 {
			t.Errorf("%d Settings spans, want 3", len(kv))
		} else {
			latest := kv[0]
			for _, s := range kv {
				if s.Start.After(latest.Start) {
					latest = s
				}
			}
			last := latest.Attrs
			d, _ := last["dotnet.arg.settings"].(string)
			if !strings.Contains(d, `"password": ***`) || !strings.Contains(d, `"user": "ada"`) {
				t.Errorf("dictionary rendered as %q", d)
			}
			if last["dotnet.arg.one.value"] != "***" || last["dotnet.arg.one.key"] != "api_key" {
				t.Errorf("pair rendered as %v / %v", last["dotnet.arg.one.key"], last["dotnet.arg.one.value"])
			}
		}
		// No secret reaches the exporter, wherever it was.
		for _, s := range r.Spans {
			for k, v := range s.Attrs {
				if str, ok := v.(string); ok && (strings.Contains(str, "hunter2") || strings.Contains(str, "sk-live")) {
					t.Errorf("secret exported in %s %s=%q", s.Name, k, str)
				}
			}
		}
	})
}

// CLROTEL_CAPTURE=off reads no value: no argument, return or `this`, and
// no exception message (only the exception's type and stack).
func TestCaptureOff(t *testing.T) {
	var spans []otlpsink.Span
	for _, app := range []string{"Values", "Exceptions"} {
		r := runApp(t, runtimes[0], app, nil, runOpts{profiler: true, env: map[string]string{"CLROTEL_CAPTURE": "off"}})
		if r.ExitCode != 0 || len(r.Spans) == 0 {
			t.Fatalf("%s: exit %d, %d spans\n%s", app, r.ExitCode, len(r.Spans), r.Stderr)
		}
		spans = append(spans, r.Spans...)
	}
	var types int
	for _, s := range spans {
		for k := range s.Attrs {
			if strings.HasPrefix(k, "dotnet.arg.") || strings.HasPrefix(k, "dotnet.return") || strings.HasPrefix(k, "dotnet.this") {
				t.Fatalf("%s has %s with capture off", s.Name, k)
			}
		}
		for _, e := range s.Events {
			if _, ok := e.Attrs["exception.type"]; ok {
				types++
			}
			if m, ok := e.Attrs["exception.message"]; ok {
				t.Fatalf("%s: event %s has exception.message %q with capture off", s.Name, e.Name, m)
			}
		}
		if strings.Contains(s.StatusMsg, ":") {
			t.Errorf("%s: status %q carries a message with capture off", s.Name, s.StatusMsg)
		}
	}
	if types == 0 {
		t.Error("no exception events at all")
	}
}

func TestStaticFields(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Values", nil, runOpts{profiler: true, env: map[string]string{
			"CLROTEL_STATICS": "Acme.Values.Settings.MaxItems,Acme.Values.Settings.Region,Acme.Values.Settings.Origin,Acme.Values.Settings.PerThread,Acme.Values.Settings.ApiToken,Acme.Values.Settings.Missing",
		}})
		if r.ExitCode != 0 {
			t.Fatalf("exit %d\n%s", r.ExitCode, r.Stderr)
		}
		uses := byName(r.Spans, "Values.exe!Acme.Values.Settings.Use(Int32 x)")
		if len(uses) != 2 {
			t.Fatalf("%d Use spans", len(uses))
		}
		// The first call's entry comes before the class's static constructor:
		// its statics have no storage yet and are not captured.
		for _, k := range []string{"dotnet.static.MaxItems", "dotnet.static.Region", "dotnet.static.PerThread"} {
			if v, ok := uses[0].Attrs[k]; ok {
				t.Errorf("first call: %s = %v before the class was initialised", k, v)
			}
		}
		for i, u := range uses[1:] {
			for k, want := range map[string]any{
				"dotnet.static.MaxItems": int64(42),
				"dotnet.static.Region":   "eu-west",
				"dotnet.static.Origin":   "Geometry.Point{X=1, Y=2}",
				"dotnet.static.ApiToken": "***",
			} {
				if got := u.Attrs[k]; got != want {
					t.Errorf("call %d: %s = %#v, want %#v", i, k, got, want)
				}
			}
		}
		// The thread static was set to 9 by the first call.
		if got := uses[1].Attrs["dotnet.static.PerThread"]; got != int64(9) {
			t.Errorf("PerThread on the second call = %v, want 9", got)
		}
		if !strings.Contains(r.Stderr, "no static field Missing") {
			t.Errorf("missing static not reported:\n%s", r.Stderr)
		}
	})
}

// Values cut by the hook's per-record budget (CLROTEL_VALUE_BYTES) mark
// the span, as the attribute budget does: a reader (and the generator's
// value oracle, seed 410063) can tell "…" and the arguments after it from
// what the method saw.
func TestValueBytesCutMarksTheSpan(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		r := runApp(t, rt, "Values", nil, runOpts{profiler: true, env: map[string]string{"CLROTEL_VALUE_BYTES": "64"}})
		if r.ExitCode != 0 || !strings.Contains(r.Stdout, "done 5 2 changed") {
			t.Fatalf("exit %d, stdout %q\n%s", r.ExitCode, r.Stdout, r.Stderr)
		}
		s := one(t, r.Spans, "Calls.Arrays(")
		if s.Attrs["dotnet.values.truncated"] != true {
			t.Fatalf("Arrays's values do not fit in 64 bytes, yet the span is not marked: %v", s.Attrs)
		}
		if g, ok := s.Attrs["dotnet.arg.grid"]; ok && g != "…" {
			t.Errorf("the last argument after the cut: %v", g)
		}
		for _, sp := range r.Spans {
			for k, v := range sp.Attrs {
				if strings.HasPrefix(k, "dotnet.arg.") && v == "…" && sp.Attrs["dotnet.values.truncated"] != true {
					t.Errorf("%s: %s is a cut, the span is not marked", sp.Name, k)
				}
			}
		}
	})
}

// A trace's first CLROTEL_MAX_VALUE_SPANS_PER_TRACE spans on a thread carry
// their values, later ones none, and the root says so; work a pool thread
// runs for the trace starts its own count.
func TestValueSpansPerTrace(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		const n, budget = 30, 10
		for _, tc := range []struct {
			limit string
			want  int // Make spans with their argument
		}{{fmt.Sprint(budget), budget - 1}, {"0", n}} {
			r := runApp(t, rt, "AsyncFlow", []string{"manyitems", fmt.Sprint(n)}, runOpts{profiler: true, env: map[string]string{
				"CLROTEL_EXCLUDE": "Program.Main", "CLROTEL_FOLD": "off", "CLROTEL_MAX_VALUE_SPANS_PER_TRACE": tc.limit}})
			if r.ExitCode != 0 {
				t.Fatalf("exit %d\n%s", r.ExitCode, r.Stderr)
			}
			root := one(t, r.Spans, "ManyItems.Run(")
			valued := 0
			for _, s := range byName(r.Spans, asyncNS+"ManyItems.Make(Int32 id)") {
				_, ok := s.Attrs["dotnet.arg.id"]
				if ok {
					valued++
				}
				if ok == (s.Attrs["dotnet.values.omitted"] == true) {
					t.Errorf("limit %s: Make span: value %v, omitted %v", tc.limit, ok, s.Attrs["dotnet.values.omitted"])
				}
			}
			works := byName(r.Spans, asyncNS+"ManyItems.Work(Int32 id)")
			for _, w := range works {
				if _, ok := w.Attrs["dotnet.arg.id"]; !ok {
					t.Errorf("limit %s: a Work span on a pool thread has no value: %v", tc.limit, w.Attrs)
					break
				}
			}
			limited := root.Attrs["clrotel.values_limited"] == true
			if valued != tc.want || limited != (tc.limit != "0") || root.Attrs["dotnet.arg.n"] != int64(n) {
				t.Errorf("limit %s: %d of %d Make spans with values (want %d), root limited=%v, root's n=%v", tc.limit, valued, n, tc.want, limited, root.Attrs["dotnet.arg.n"])
			}
		}
	})
}

// Once a method's calls have been read often enough through the runtime's
// answers, the value reader reads its arguments and return where those
// answers placed them, without asking (profiler/eltargs.h). The values are
// the same: each method of Values, called again and again with the same
// arguments, shows on its last call (read without asking) what it showed on
// its second (asked).
func TestValuesReadWithoutAsking(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		const repeat = 2 * 16
		r := runApp(t, rt, "Values", []string{"repeat", fmt.Sprint(repeat)}, runOpts{profiler: true, env: map[string]string{
			"CLROTEL_FOLD": "off", "CLROTEL_MAX_VALUE_SPANS_PER_TRACE": "0", "CLROTEL_EXPORT_CPU_PERCENT": "0", "CLROTEL_LOG_LEVEL": "info"}})
		if r.ExitCode != 0 || !strings.Contains(r.Stdout, "done 5 2 changed") {
			t.Fatalf("exit %d, stdout %q\n%s", r.ExitCode, r.Stdout, r.Stderr)
		}
		m := regexp.MustCompile(`values: (\d+) methods' arguments read where the runtime's answers placed them`).FindStringSubmatch(r.Stderr)
		if m == nil {
			t.Fatalf("no report of arguments read without asking:\n%s", r.Stderr)
		}
		if n, _ := strconv.Atoi(m[1]); n < 10 {
			t.Errorf("%d methods read without asking, want most of Values' 30", n)
		}
		values := func(s otlpsink.Span) map[string]string {
			v := map[string]string{}
			for k, a := range s.Attrs {
				if strings.HasPrefix(k, "dotnet.arg.") || strings.HasPrefix(k, "dotnet.this") || strings.HasPrefix(k, "dotnet.return") {
					v[k] = fmt.Sprint(a) // NaN is NaN
				}
			}
			return v
		}
		byMethod := map[string][]otlpsink.Span{}
		for _, s := range r.Spans {
			byMethod[s.Name] = append(byMethod[s.Name], s)
		}
		compared := 0
		for name, spans := range byMethod {
			if len(spans) != repeat+1 || strings.Contains(name, "Program.") {
				continue
			}
			sort.Slice(spans, func(i, j int) bool { return spans[i].Start.Before(spans[j].Start) })
			asked, last := values(spans[1]), values(spans[repeat])
			if !reflect.DeepEqual(asked, last) {
				t.Errorf("%s:\nsecond call %v\nlast call   %v", name, asked, last)
			}
			if len(asked) > 0 {
				compared++
			}
		}
		if compared < 20 {
			t.Errorf("%d methods with values called %d times, want Values' calls", compared, repeat+1)
		}
	})
}
