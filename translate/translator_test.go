package translate

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"github.com/clrotel/clrotel/naming"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/clrotel/clrotel/capture"
	"github.com/clrotel/clrotel/otelbridge"
	"github.com/clrotel/clrotel/otlpsink"
	"github.com/clrotel/clrotel/serving"
	"github.com/clrotel/clrotel/values"
)

// fakeMethods knows functions by index and classes by id, and remembers
// the classes it was asked to plan.
type fakeMethods struct {
	fns     map[uint32]Function
	classes map[uint64]string
	needed  []uint64
}

func (f *fakeMethods) Function(i uint32) (Function, bool) { fn, ok := f.fns[i]; return fn, ok }
func (f *fakeMethods) Instantiation(i uint32, class uint64, typeArgs []uint64) *otelbridge.Method {
	return otelbridge.NewMethod(otelbridge.MethodInfo{Module: "App.dll", FunctionName: fmt.Sprintf("App.Box<%s>.Get", f.ClassName(class)), ReturnType: "Void"})
}
func (f *fakeMethods) Enumeration(i uint32, class uint64) *otelbridge.Method {
	return method("App.Shop.Items", "")
}
func (f *fakeMethods) ClassName(c uint64) string {
	if n, ok := f.classes[c]; ok {
		return n
	}
	return "?"
}
func (f *fakeMethods) NeedPlan(c uint64) { f.needed = append(f.needed, c) }

type logs struct{ lines []string }

func (l *logs) Debugf(format string, args ...any) {
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func method(name, params string) *otelbridge.Method {
	return otelbridge.NewMethod(otelbridge.MethodInfo{Module: "App.dll", Assembly: "App", FunctionName: name, Params: params, ReturnType: "Int32"})
}

// Value streams as profiler/values.c writes them (tags: values/decode.go).
func i4(v int32) []byte { return []byte{2, 7, byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)} }
func str(s string) []byte {
	u := utf16.Encode([]rune(s))
	b := []byte{3}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(u)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(u)))
	for _, c := range u {
		b = binary.LittleEndian.AppendUint16(b, c)
	}
	return b
}
func noPlan(cls uint64) []byte { return binary.LittleEndian.AppendUint64([]byte{7}, cls) }

// rec builds records as the hooks lay them out (capture/record.go).
type rec struct {
	kind              capture.Kind
	flags             uint16
	fn, aux           uint32
	trace             [16]byte
	span, parent      [8]byte
	linkTrace         [16]byte
	linkSpan          [8]byte
	fold              *capture.Fold
	vals              []byte
	time              int64
	pos               uint64
	activity, payload []byte
}

func (r rec) record() capture.Record {
	var p []byte
	switch r.kind {
	case capture.KindEnter:
		p = binary.LittleEndian.AppendUint32(p, r.fn)
		p = binary.LittleEndian.AppendUint32(p, 0)
		if r.flags&(capture.FlagRoot|capture.FlagResume) != 0 {
			p = append(p, r.trace[:]...)
		}
		if r.flags&(capture.FlagSpanID|capture.FlagResume) != 0 {
			p = append(p, r.span[:]...)
		}
		if r.flags&capture.FlagParent != 0 {
			p = append(p, r.parent[:]...)
		}
		if r.flags&capture.FlagLink != 0 {
			p = append(append(p, r.linkTrace[:]...), r.linkSpan[:]...)
		}
	default:
		p = binary.LittleEndian.AppendUint32(p, r.fn)
		p = binary.LittleEndian.AppendUint32(p, r.aux)
		if r.fold != nil {
			f := make([]byte, capture.FoldSize)
			binary.LittleEndian.PutUint32(f, r.fold.Calls)
			binary.LittleEndian.PutUint32(f[4:], uint32(len(r.fold.Top)))
			binary.LittleEndian.PutUint64(f[8:], r.fold.Ns)
			for i, e := range r.fold.Top {
				binary.LittleEndian.PutUint32(f[16+16*i:], e.Func)
				binary.LittleEndian.PutUint32(f[20+16*i:], e.Calls)
				binary.LittleEndian.PutUint64(f[24+16*i:], e.Ns)
			}
			p = append(p, f...)
		}
	}
	if r.vals != nil {
		p = append(p, r.vals...)
	}
	if r.payload != nil {
		p = r.payload
	}
	return capture.Record{Kind: r.kind, Flags: r.flags, Time: r.time, Pos: r.pos, Payload: p}
}

type fixture struct {
	tr     *Translator
	th     *Thread
	client *otlpsink.MemoryClient
	pipe   *otelbridge.Pipeline
	fns    *fakeMethods
	log    *logs
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	c := &otlpsink.MemoryClient{}
	pipe, err := otelbridge.NewPipeline(context.Background(), otelbridge.ExportOptions{Client: c})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pipe.Shutdown(context.Background()) })
	fns := &fakeMethods{
		fns: map[uint32]Function{
			1: {Method: method("App.Shop.Order", "Int32 id, String name"), Planned: true,
				Enter:  []values.Slot{{Key: "dotnet.arg.id"}, {Key: "dotnet.arg.name"}},
				Return: []values.Slot{{Key: "dotnet.return"}}},
			2: {Method: method("App.Shop.Price", "")},
			3: {Method: method("App.Shop.Tax", "")},
			4: {Method: method("App.Shop.RunAsync", ""), AsyncKickoff: true},
			5: {Method: method("System.Runtime.CompilerServices.AsyncTaskMethodBuilder.SetException", "Exception exception")},
			6: {Method: method("System.Runtime.CompilerServices.AsyncTaskMethodBuilder<Int32>.SetResult", "Int32 result"), Planned: true,
				Enter: []values.Slot{{Key: values.ThisKey}, {Key: "dotnet.arg.result"}}},
			7: {Method: method("App.Shop.OrderAsync", "Int32 id"), AsyncKickoff: true, Planned: true,
				Enter: []values.Slot{{Key: "dotnet.arg.id"}}, Return: []values.Slot{{Key: "dotnet.return"}},
				Meta: &naming.MetaForm{Type: "App.Shop", Method: "OrderAsync", ReturnType: "System.Threading.Tasks.Task`1[System.Int32]", ParamTypes: []string{"System.Int32"}}},
			8:  {Method: method("App.Shop.Tag", "String[] tags"), Planned: true, Enter: []values.Slot{{Key: "dotnet.arg.tags"}}},
			9:  {Method: method("App.Shop.<OrderAsync>d__1.MoveNext", "")},
			10: {Method: method("App.Shop.<Items>d__2.MoveNext", ""), IterStep: true},
		},
		classes: map[uint64]string{0x10: "System.InvalidOperationException", 0x11: "System.FormatException", 0x20: "App.Money"},
	}
	salt := uint64(42)
	lg := &logs{}
	f := &fixture{
		fns: fns, log: lg, client: c, pipe: pipe,
		th: NewThread(7, &salt),
		tr: &Translator{Bridge: otelbridge.New(pipe), Methods: fns, Log: lg,
			Render: &values.Renderer{Limits: values.DefaultLimits}},
	}
	return f
}

func (f *fixture) feed(rs ...rec) {
	for _, r := range rs {
		f.tr.Record(f.th, r.record())
	}
}

func (f *fixture) spans(t *testing.T) map[string]otlpsink.Span {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := f.pipe.ForceFlush(ctx); err != nil {
		t.Fatal(err)
	}
	out := map[string]otlpsink.Span{}
	for _, s := range f.client.Spans() {
		out[s.Name] = s
	}
	return out
}

var (
	traceA = [16]byte{0xaa, 1}
	order  = "App.dll!App.Shop.Order(Int32 id, String name)"
	price  = "App.dll!App.Shop.Price()"
)

func TestRecord(t *testing.T) {
	root := func(fn uint32, vals []byte) rec {
		flags := capture.FlagRoot
		if vals != nil {
			flags |= capture.FlagValues
		}
		return rec{kind: capture.KindEnter, flags: flags, fn: fn, trace: traceA, vals: vals, time: 100}
	}
	leave := func(fn uint32, flags uint16, vals []byte) rec {
		if vals != nil {
			flags |= capture.FlagValues
		}
		return rec{kind: capture.KindLeave, flags: flags, fn: fn, vals: vals, time: 200}
	}
	child := rec{kind: capture.KindEnter, fn: 2, time: 120, pos: 4096}
	childLeave := leave(2, 0, nil)
	childLeave.time = 150
	tests := []struct {
		name  string
		recs  []rec
		check func(t *testing.T, f *fixture, spans map[string]otlpsink.Span)
	}{
		{"a root with its arguments and return value",
			[]rec{root(1, append(i4(7), str("pen")...)), leave(1, 0, i4(9))},
			func(t *testing.T, f *fixture, spans map[string]otlpsink.Span) {
				s, ok := spans[order]
				if !ok {
					t.Fatalf("no span %q in %v", order, spans)
				}
				a := s.Attrs
				if a["dotnet.arg.id"] != int64(7) || a["dotnet.arg.name"] != "pen" || a["dotnet.return"] != int64(9) {
					t.Errorf("attributes %v", a)
				}
				if s.TraceID != hex.EncodeToString(traceA[:]) || s.ParentSpanID != "" || s.Start.UnixNano() != 100 || s.End.UnixNano() != 200 {
					t.Errorf("span %v", s)
				}
				if f.tr.Roots() != 1 {
					t.Errorf("roots %d, want 1", f.tr.Roots())
				}
			}},
		{"a child's span id comes from the thread's salt and the record's position",
			[]rec{root(2, nil), child, childLeave, leave(2, 0, nil)},
			func(t *testing.T, f *fixture, spans map[string]otlpsink.Span) {
				var ids []string
				for _, s := range f.client.Spans() {
					ids = append(ids, s.SpanID)
				}
				id := capture.SpanID(42, 4096)
				want := hex.EncodeToString(id[:])
				found := false
				for _, id := range ids {
					found = found || id == want
				}
				if len(ids) != 2 || !found {
					t.Errorf("span ids %v, want one of them %s", ids, want)
				}
			}},
		{"a root joining its caller's trace",
			[]rec{{kind: capture.KindEnter, flags: capture.FlagRoot | capture.FlagParent, fn: 2, trace: traceA, parent: [8]byte{0xbb, 2}, time: 100}, leave(2, 0, nil)},
			func(t *testing.T, f *fixture, spans map[string]otlpsink.Span) {
				if s := spans[price]; s.ParentSpanID != "bb02000000000000" {
					t.Errorf("span %v, want parent bb02", s)
				}
			}},
		{"a root linked to the span that queued it",
			[]rec{{kind: capture.KindEnter, flags: capture.FlagRoot | capture.FlagLink, fn: 2, trace: traceA, linkTrace: [16]byte{0xcc}, linkSpan: [8]byte{0xdd}, time: 100}, leave(2, 0, nil)},
			func(t *testing.T, f *fixture, spans map[string]otlpsink.Span) {
				s := spans[price]
				if len(s.Links) != 1 || s.Links[0].TraceID != "cc000000000000000000000000000000" || s.Links[0].SpanID != "dd00000000000000" {
					t.Errorf("span %v, want a link to cc.../dd...", s)
				}
			}},
		{"values dropped and omitted are marked and counted",
			[]rec{{kind: capture.KindEnter, flags: capture.FlagRoot | capture.FlagValuesDropped | capture.FlagValuesOmitted, fn: 1, trace: traceA, time: 100}, leave(1, capture.FlagValuesDropped, nil)},
			func(t *testing.T, f *fixture, spans map[string]otlpsink.Span) {
				a := spans[order].Attrs
				if a["dotnet.values.dropped"] != true || a["dotnet.values.omitted"] != true {
					t.Errorf("attributes %v", a)
				}
				if f.tr.ValuesDropped() != 2 {
					t.Errorf("values dropped %d, want 2", f.tr.ValuesDropped())
				}
			}},
		{"a stream cut by the hook's byte budget is marked truncated",
			[]rec{root(1, i4(7)), leave(1, 0, nil)},
			func(t *testing.T, f *fixture, spans map[string]otlpsink.Span) {
				if a := spans[order].Attrs; a["dotnet.values.truncated"] != true || a["dotnet.arg.id"] != int64(7) {
					t.Errorf("attributes %v", a)
				}
			}},
		{"a class met without a plan is asked for",
			[]rec{root(1, append(noPlan(0x20), str("pen")...)), leave(1, 0, nil)},
			func(t *testing.T, f *fixture, spans map[string]otlpsink.Span) {
				if len(f.fns.needed) != 1 || f.fns.needed[0] != 0x20 {
					t.Errorf("plans asked for %v, want [0x20]", f.fns.needed)
				}
			}},
		{"what was folded into a span, named",
			[]rec{root(2, nil), {kind: capture.KindLeave, flags: capture.FlagFolded | capture.FlagTruncated | capture.FlagValuesLimited, fn: 2, time: 200,
				fold: &capture.Fold{Calls: 12, Ns: 5000, Top: []capture.FoldEntry{{Func: 3, Calls: 10, Ns: 4000}, {Func: 99, Calls: 2, Ns: 1000}}}}},
			func(t *testing.T, f *fixture, spans map[string]otlpsink.Span) {
				a := spans[price].Attrs
				text := fmt.Sprint(a)
				if a["clrotel.values_limited"] != true || !strings.Contains(text, "App.dll!App.Shop.Tax()") || !strings.Contains(text, "function #99") {
					t.Errorf("attributes %v", a)
				}
			}},
		{"an exception thrown and not caught",
			[]rec{root(2, nil),
				{kind: capture.KindException, flags: capture.FlagValues, time: 150,
					vals: append(append(append(binary.LittleEndian.AppendUint64(nil, 0x10), str("bad card 4111 1111 1111 1111")...), binary.LittleEndian.AppendUint64(nil, 0x11)...), str("inner")...)},
				{kind: capture.KindUnwind, fn: 2, time: 160}},
			func(t *testing.T, f *fixture, spans map[string]otlpsink.Span) {
				s := spans[price]
				if len(s.Events) != 1 {
					t.Fatalf("span %v, want one event", s)
				}
				a := s.Events[0].Attrs
				if a["exception.type"] != "System.InvalidOperationException" || a["exception.message"] != "bad card 4111 1111 1111 1111" {
					t.Errorf("event %v", a)
				}
				if !strings.Contains(fmt.Sprint(a), "System.FormatException") {
					t.Errorf("event %v lacks the inner exception", a)
				}
			}},
		{"an unknown function and a corrupt record are logged, not traced",
			[]rec{root(77, nil), {kind: capture.KindEnter, payload: []byte{1, 2}}, root(2, nil), leave(2, 0, nil)},
			func(t *testing.T, f *fixture, spans map[string]otlpsink.Span) {
				if _, ok := spans[price]; len(spans) != 1 || !ok || len(f.log.lines) != 2 {
					t.Errorf("spans %v, log %q", spans, f.log.lines)
				}
			}},
		{"an async method's span ends when its task fails",
			[]rec{{kind: capture.KindEnter, flags: capture.FlagRoot | capture.FlagSpanID, fn: 4, trace: traceA, span: [8]byte{0xee}, time: 100},
				leave(4, 0, nil),
				{kind: capture.KindEnter, flags: capture.FlagResume | capture.FlagAsyncEnd, fn: 5, trace: traceA, span: [8]byte{0xee}, time: 300},
				leave(5, 0, nil)},
			func(t *testing.T, f *fixture, spans map[string]otlpsink.Span) {
				s := spans["App.dll!App.Shop.RunAsync()"]
				if s.End.UnixNano() != 300 || s.StatusCode != "error" {
					t.Errorf("span %v, want it ended at 300 as failed", s)
				}
			}},
		{"an iterator's step that begins an enumeration (its record has a span id) is the iterator method's span, to the enumeration's end",
			[]rec{root(2, nil),
				{kind: capture.KindEnter, flags: capture.FlagSpanID, fn: 10, span: [8]byte{0xef}, time: 110, pos: 64},
				{kind: capture.KindLeave, fn: 10, aux: capture.ExitIterYielded, time: 115},
				{kind: capture.KindEnter, flags: capture.FlagResume, fn: 10, trace: traceA, span: [8]byte{0xef}, time: 120},
				{kind: capture.KindLeave, fn: 10, aux: capture.ExitIterYielded, time: 125},
				{kind: capture.KindEnter, flags: capture.FlagResume, fn: 10, trace: traceA, span: [8]byte{0xef}, time: 130},
				{kind: capture.KindLeave, fn: 10, aux: capture.ExitIterDone, time: 135},
				{kind: capture.KindEnter, flags: capture.FlagResume | capture.FlagAsyncEnd, fn: 10, trace: traceA, span: [8]byte{0xef}, time: 140},
				{kind: capture.KindLeave, fn: 10, time: 145},
				leave(2, 0, nil)},
			func(t *testing.T, f *fixture, spans map[string]otlpsink.Span) {
				s, ok := spans["App.dll!App.Shop.Items()"]
				if !ok || len(spans) != 2 {
					t.Fatalf("spans %v, want Price and Items", spans)
				}
				if s.SpanID != "ef00000000000000" || s.ParentSpanID != spans[price].SpanID || s.Start.UnixNano() != 110 || s.End.UnixNano() != 140 ||
					s.Attrs["clrotel.iterator.yielded"] != int64(2) {
					t.Errorf("span %v, want ef00.. under Price, 110 to 140, 2 yielded", s)
				}
			}},
		{"an Activity the sampler drops is not exported",
			[]rec{{kind: capture.KindActivity, payload: make([]byte, 24)}},
			func(t *testing.T, f *fixture, spans map[string]otlpsink.Span) {
				if len(spans) != 0 {
					t.Errorf("spans %v", spans)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.feed(tc.recs...)
			tc.check(t, f, f.spans(t))
		})
	}
}

// TestReturnBudget: a return value gets what its call's arguments left of
// the span's attribute bytes.
func TestReturnBudget(t *testing.T) {
	f := newFixture(t)
	f.tr.Render.Limits.MaxAttrBytes = 80
	long := strings.Repeat("x", 40)
	f.feed(rec{kind: capture.KindEnter, flags: capture.FlagRoot | capture.FlagValues, fn: 1, trace: traceA, vals: append(i4(1), str(long)...), time: 1},
		rec{kind: capture.KindLeave, flags: capture.FlagValues, fn: 1, vals: str(long), time: 2})
	a := f.spans(t)[order].Attrs
	if a["dotnet.arg.name"] != long || a["dotnet.return"] != nil || a["dotnet.values.truncated"] != true {
		keys := make([]string, 0, len(a))
		for k := range a {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t.Errorf("attributes %v", keys)
	}
}

// TestUnitRootHoldsNothing: a root the hooks mark as a unit of work's
// (FlagUnit) never serves, so its calls' spans go as they end; any other
// outermost frame's first calls wait for its fate (otelbridge's
// firstcalls.go).
func TestUnitRootHoldsNothing(t *testing.T) {
	for _, c := range []struct {
		name  string
		flags uint16
		sent  bool
	}{
		{"a unit of work's root", capture.FlagRoot | capture.FlagUnit, true},
		{"a thread's body, which may serve", capture.FlagRoot, false},
	} {
		f := newFixture(t)
		f.tr.Bridge.SetServing(serving.Default())
		f.feed(rec{kind: capture.KindEnter, flags: c.flags, fn: 1, trace: traceA, time: 100},
			rec{kind: capture.KindEnter, fn: 2, time: 120, pos: 4096},
			rec{kind: capture.KindLeave, fn: 2, time: 150})
		if _, ok := f.spans(t)[price]; ok != c.sent {
			t.Errorf("%s: its call's span sent before it ends: %v, want %v", c.name, ok, c.sent)
		}
		f.feed(rec{kind: capture.KindLeave, fn: 1, time: 200})
		if s := f.spans(t); len(s) != 2 {
			t.Errorf("%s: %d spans once it ended, want 2", c.name, len(s))
		}
	}
}

// TestQueuedCallKeepsItsTrace: a first call of a thread's outermost frame
// becomes a trace of its own once the frame serves, unless its exit record
// says it made work for another thread (FlagQueued): that work joins its
// trace, so it keeps it.
func TestQueuedCallKeepsItsTrace(t *testing.T) {
	loop := [8]byte{0x10, 1}
	for _, c := range []struct {
		name  string
		flags uint16
		own   bool
	}{
		{"a call that made no work", 0, true},
		{"a call that queued work", capture.FlagQueued, false},
	} {
		f := newFixture(t)
		f.tr.Bridge.SetServing(serving.Default())
		f.feed(rec{kind: capture.KindEnter, flags: capture.FlagRoot | capture.FlagSpanID, fn: 1, trace: traceA, span: loop, time: 100},
			rec{kind: capture.KindEnter, fn: 2, time: 120, pos: 4096},
			rec{kind: capture.KindLeave, flags: c.flags, fn: 2, time: 150},
			rec{kind: capture.KindServing, fn: 1, time: 200},
			rec{kind: capture.KindEnter, flags: capture.FlagRoot | capture.FlagLink, fn: 2, trace: [16]byte{0xbb, 2}, linkTrace: traceA, linkSpan: loop, time: 300, pos: 8192},
			rec{kind: capture.KindLeave, fn: 2, time: 310})
		f.spans(t)
		var first *otlpsink.Span
		for _, s := range f.client.Spans() {
			if s.Name == price && s.Start.UnixNano() == 120 {
				first = &s
			}
		}
		switch {
		case first == nil:
			t.Errorf("%s: no span of the first call", c.name)
		case (first.TraceID != fmt.Sprintf("%x", traceA)) != c.own:
			t.Errorf("%s: its trace %s, the loop's %x; want a trace of its own: %v", c.name, first.TraceID, traceA, c.own)
		}
	}
}
