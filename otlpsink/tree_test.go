package otlpsink

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ms is a shorthand for fixture times.
func ms(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }

// treeFixture is three traces, handed over out of order: t2 (an orphan)
// arrives first, t0 starts first.
func treeFixture() []Span {
	at := func(d time.Duration) time.Time { return base.Add(d) }
	return []Span{
		{TraceID: "t2", SpanID: "x", ParentSpanID: "gone", Name: "Worker.Run", Start: at(ms(20)), End: at(ms(20) + 500)},
		{TraceID: "t1", SpanID: "b", ParentSpanID: "a", Name: "Orders.Save", Start: at(ms(6)), End: at(ms(9)),
			StatusCode: "error", StatusMsg: "disk full",
			Events: []Event{{Name: "exception", Attrs: map[string]any{
				"exception.type": "System.IO.IOException", "exception.message": "disk full", "exception.stacktrace": "at ...",
			}}}},
		{TraceID: "t1", SpanID: "a", Name: "Main", Start: base, End: at(ms(12.5)),
			Attrs: map[string]any{"thread.id": int64(7)}, Resource: map[string]any{"service.name": "shop"}},
		{TraceID: "t1", SpanID: "c", ParentSpanID: "a", Name: "Orders.Load", Start: at(ms(1)), End: at(ms(2.25)),
			Attrs: map[string]any{
				"dotnet.arg.id": int64(42), "dotnet.arg.name": "a\"b\nc", "ratio": 0.5, "ok": true, "tags": []any{"x", int64(1)},
			}},
		{TraceID: "t1", SpanID: "d", ParentSpanID: "c", Name: "Cache.Get", Start: at(ms(1.5)), End: at(ms(1.5) + 15*time.Microsecond),
			Events: []Event{{Name: "miss", Attrs: map[string]any{"size": int64(3), "key": "k1"}}}},
		{TraceID: "t0", SpanID: "z", Name: "Startup", Start: at(-time.Second), End: at(200 * time.Millisecond)},
	}
}

func TestWriteTree(t *testing.T) {
	tests := []struct {
		name  string
		spans []Span
		opts  TreeOptions
		want  string
	}{
		{
			name:  "attributes and events",
			spans: treeFixture(),
			opts:  TreeOptions{Attrs: true, Hide: []string{"thread.id"}},
			want: `trace t0  (1 span)
└─ Startup  1.2s
trace t1  (4 spans, service shop)
└─ Main  12.5ms  [thread 7]
   ├─ Orders.Load  1.25ms
   │  │  dotnet.arg.id=42
   │  │  dotnet.arg.name="a\"b\nc"
   │  │  ok=true
   │  │  ratio=0.5
   │  │  tags=["x", 1]
   │  └─ Cache.Get  15µs
   │        ! miss key="k1" size=3
   └─ Orders.Save  3ms
         ERROR: disk full
         ! exception: System.IO.IOException: disk full
trace t2  (1 span)
└─ Worker.Run  500ns (orphan)
`,
		},
		{
			name:  "names and errors only",
			spans: treeFixture(),
			want: `trace t0  (1 span)
└─ Startup  1.2s
trace t1  (4 spans, service shop)
└─ Main  12.5ms  [thread 7]
   ├─ Orders.Load  1.25ms
   │  └─ Cache.Get  15µs
   └─ Orders.Save  3ms
         ERROR: disk full
trace t2  (1 span)
└─ Worker.Run  500ns (orphan)
`,
		},
		{
			name:  "max spans",
			spans: treeFixture(),
			opts:  TreeOptions{MaxSpans: 3},
			want: `trace t0  (1 span)
└─ Startup  1.2s
trace t1  (4 spans, service shop)
└─ Main  12.5ms  [thread 7]
   ├─ Orders.Load  1.25ms
... 3 more spans
`,
		},
		{
			name: "orphans beside a root",
			spans: []Span{
				{TraceID: "t", SpanID: "r", Name: "Root", Start: base, End: base.Add(ms(4)), Resource: map[string]any{"service.name": "a"}},
				{TraceID: "t", SpanID: "o", ParentSpanID: "lost", Name: "Orphan", Start: base.Add(ms(1)), End: base.Add(ms(2)), Resource: map[string]any{"service.name": "b"}},
				{TraceID: "t", SpanID: "k", ParentSpanID: "o", Name: "Kid", Start: base.Add(ms(1.5)), End: base.Add(ms(1.75)), StatusCode: "error"},
			},
			want: `trace t  (3 spans, service a, b)
├─ Root  4ms
└─ Orphan  1ms (orphan)
   └─ Kid  250µs
         ERROR
`,
		},
		{
			name: "parent cycles and repeated ids",
			spans: []Span{
				{TraceID: "c", SpanID: "1", ParentSpanID: "2", Name: "A", Start: base, End: base.Add(ms(1))},
				{TraceID: "c", SpanID: "2", ParentSpanID: "1", Name: "B", Start: base.Add(ms(1)), End: base.Add(ms(2))},
				{TraceID: "c", SpanID: "3", ParentSpanID: "3", Name: "Self", Start: base.Add(ms(2)), End: base.Add(ms(3))},
				{TraceID: "d", SpanID: "r", Name: "R1", Start: base.Add(ms(5)), End: base.Add(ms(6))},
				{TraceID: "d", SpanID: "r", Name: "R2", Start: base.Add(ms(6)), End: base.Add(ms(7))},
				{TraceID: "d", SpanID: "k", ParentSpanID: "r", Name: "", Start: base.Add(ms(8)), End: base.Add(ms(9))},
			},
			want: `trace c  (3 spans)
├─ Self  1ms (parent cycle)
└─ A  1ms (parent cycle)
   └─ B  1ms
trace d  (3 spans)
├─ R1  1ms
│  └─ (no name)  1ms
└─ R2  1ms
`,
		},
		{
			name: "empty",
			want: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteTree(&b, tt.spans, tt.opts); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", b.String(), tt.want)
			}
			// Laid out ahead (Prepare), the spans print the same.
			var p strings.Builder
			printer := NewTreePrinter(&p, tt.opts)
			spans := slices.Clone(tt.spans)
			ptrs := make([]*Span, len(spans))
			printer.Prepare(spans)
			for i := range spans {
				ptrs[i] = &spans[i]
			}
			if err := printer.Print(ptrs); err != nil {
				t.Fatal(err)
			}
			if err := printer.Finish(); err != nil {
				t.Fatal(err)
			}
			if p.String() != tt.want {
				t.Errorf("prepared, got:\n%s\nwant:\n%s", p.String(), tt.want)
			}
		})
	}
}

type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n--; w.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestWriteTreeWriteError(t *testing.T) {
	if err := WriteTree(&failingWriter{n: 0}, treeFixture(), TreeOptions{Attrs: true}); err == nil || err.Error() != "disk full" {
		t.Fatalf("WriteTree = %v, want the writer's error", err)
	}
}

// TestTreePrinterBatches prints the fixture a trace at a time: the same
// trees as one WriteTree of each batch, the span limit counted across the
// batches, and the spans skipped counted in the closing line.
func TestTreePrinterBatches(t *testing.T) {
	spans := treeFixture()
	var batches [][]*Span
	for _, id := range []string{"t1", "t0", "t2"} {
		var b []*Span
		for i := range spans {
			if spans[i].TraceID == id {
				b = append(b, &spans[i])
			}
		}
		batches = append(batches, b)
	}
	tests := []struct {
		name string
		max  int
		skip int
		want string
	}{
		{"all", 0, 0, `trace t1  (4 spans, service shop)
└─ Main  12.5ms  [thread 7]
   ├─ Orders.Load  1.25ms
   │  └─ Cache.Get  15µs
   └─ Orders.Save  3ms
         ERROR: disk full
trace t0  (1 span)
└─ Startup  1.2s
trace t2  (1 span)
└─ Worker.Run  500ns (orphan)
`},
		{"limit across batches, skipped spans counted", 5, 3, `trace t1  (4 spans, service shop)
└─ Main  12.5ms  [thread 7]
   ├─ Orders.Load  1.25ms
   │  └─ Cache.Get  15µs
   └─ Orders.Save  3ms
         ERROR: disk full
trace t0  (1 span)
└─ Startup  1.2s
... 4 more spans
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			w := &countingWriter{w: &b}
			p := NewTreePrinter(w, TreeOptions{MaxSpans: tt.max})
			for _, batch := range batches {
				if err := p.Print(batch); err != nil {
					t.Fatal(err)
				}
			}
			p.Skip(tt.skip)
			if tt.max > 0 && !p.Full() {
				t.Error("not Full after the limit")
			}
			if err := p.Finish(); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
			// Small batches are written once each, never a line in pieces.
			if w.writes > len(batches)+1 {
				t.Errorf("%d writes for %d batches", w.writes, len(batches))
			}
		})
	}
}

type countingWriter struct {
	w      *strings.Builder
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	if len(p) > 0 && p[len(p)-1] != '\n' {
		return 0, errors.New("a write ends inside a line")
	}
	return c.w.Write(p)
}

func TestAppendQuoted(t *testing.T) {
	for _, s := range []string{
		"", "plain", `a"b\c`, "tab\there", "new\nline\r", "\x00\x1f\x7f", "héllo wörld", "日本語",
		"emoji 🎉 done", "\xff\xfe invalid", "mixed \xe6\x97 cut rune", "\u00a0nbsp\u200bzero width", "\u2028sep",
		"end\xc3", "\ufffd", `{"k":"v"}` + "\u00e9\n",
	} {
		if got, want := string(appendQuoted(nil, s)), strconv.Quote(s); got != want {
			t.Errorf("appendQuoted(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestPlainWord: each byte value, at each place among plain bytes, makes
// the word plain exactly when the byte is; long runs of plain text with
// one special byte in them quote as strconv does.
func TestPlainWord(t *testing.T) {
	for c := 0; c < 256; c++ {
		for at := range 8 {
			w := []byte("abcdefgh")
			w[at] = byte(c)
			if got, want := plainWord(string(w)), plainASCII(byte(c)); got != want {
				t.Errorf("plainWord(%q) = %v, want %v", w, got, want)
			}
		}
		s := strings.Repeat("x", 13) + string(rune(c)) + strings.Repeat("y", 17) + string([]byte{byte(c)}) + "z"
		if got, want := string(appendQuoted(nil, s)), strconv.Quote(s); got != want {
			t.Errorf("appendQuoted(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestAppendOneLine: control characters are escaped, everything else
// (other runes, invalid bytes) kept.
func TestAppendOneLine(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"plain text", "plain text"},
		{"héllo 日本 \xff", "héllo 日本 \xff"},
		{"a\nb", `a\nb`},
		{"line\nbreak\ttab\r", `line\nbreak\ttab\r`},
		{"del\x7f", `del\x7f`},
		{"nul\x00é", `nul\x00é`},
	} {
		if got := string(appendOneLine([]byte("> "), tt.in)); got != "> "+tt.want {
			t.Errorf("appendOneLine(%q) = %q, want %q", tt.in, got, "> "+tt.want)
		}
	}
}

func FuzzAppendQuoted(f *testing.F) {
	f.Add("a\"b\xff\u00e9\n")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendQuoted(nil, s)), strconv.Quote(s); got != want {
			t.Errorf("appendQuoted(%q) = %s, want %s", s, got, want)
		}
	})
}

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0ns"},
		{500, "500ns"},
		{1500, "1.5µs"},
		{15 * time.Microsecond, "15µs"},
		{2603 * time.Microsecond, "2.603ms"},
		{1234567, "1.235ms"},
		{10 * time.Millisecond, "10ms"},
		{time.Second - 1, "1s"},
		{1200 * time.Millisecond, "1.2s"},
		{90 * time.Second, "1m30s"},
		{-2 * time.Millisecond, "-2ms"},
	}
	for _, tt := range tests {
		if got := formatDuration(tt.d); got != tt.want {
			t.Errorf("formatDuration(%d) = %q, want %q", int64(tt.d), got, tt.want)
		}
	}
}

// TestPrintParallelSameAsSequential: without a span limit the traces are
// laid out on every processor, in windows; the output is what the
// sequential path (a limit above the count) prints.
func TestPrintParallelSameAsSequential(t *testing.T) {
	var spans []Span
	add := func(trace, id, parent string, start time.Duration, attrs map[string]any) {
		spans = append(spans, Span{TraceID: trace, SpanID: id, ParentSpanID: parent, Name: "M" + id,
			Start: base.Add(start), End: base.Add(start + time.Microsecond), Attrs: attrs})
	}
	for i := range printWindow + 500 { // more traces than a window
		tr := "t" + strconv.Itoa(i)
		add(tr, "r", "", time.Duration(i)*time.Millisecond, map[string]any{"i": int64(i), "s": "x\"y"})
		add(tr, "c", "r", time.Duration(i)*time.Millisecond+1, nil)
	}
	for i := range printWindowSpans + 10 { // one trace larger than a window
		add("big", "s"+strconv.Itoa(i), "s"+strconv.Itoa(i/2), time.Duration(i), map[string]any{"k": "v"})
	}
	var par, seq strings.Builder
	if err := WriteTree(&par, spans, TreeOptions{Attrs: true}); err != nil {
		t.Fatal(err)
	}
	if err := WriteTree(&seq, spans, TreeOptions{Attrs: true, MaxSpans: len(spans) + 1}); err != nil {
		t.Fatal(err)
	}
	if par.String() != seq.String() {
		t.Errorf("parallel output (%d bytes) differs from sequential (%d bytes)", par.Len(), seq.Len())
	}
	if !strings.Contains(par.String(), "trace big  ("+strconv.Itoa(printWindowSpans+10)+" spans)") {
		t.Error("the large trace is missing")
	}
}
