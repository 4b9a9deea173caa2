package otlpsink

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// TreeOptions controls [WriteTree].
type TreeOptions struct {
	// Attrs prints each span's attributes and events under it.
	Attrs bool
	// Hide lists attribute keys not to print with Attrs, such as those
	// every span carries alike.
	Hide []string
	// MaxSpans stops the output after this many spans and says how many
	// were left out; 0 prints them all.
	MaxSpans int
}

// WriteTree prints spans as indented trees, one trace after another in the
// order their roots started. Each trace opens with a header line (trace id,
// span count, service.name); each span is a line with its name and
// duration, its children below it in the order they started:
//
//	trace 4bf92f3577b34da6a3ce929d0e0e4736  (3 spans, service shop)
//	└─ Main  12.5ms  [thread 7]
//	   ├─ Load  1.25ms
//	   └─ Save  3ms
//	         ERROR: disk full
//
// A span whose parent was not received starts a tree of its own, marked
// (orphan). An error status adds an ERROR line; with opts.Attrs, the
// attributes follow as key=value lines sorted by key, then the events as
// "! name key=value ..." lines ("! exception: Type: message" for
// exceptions).
func WriteTree(w io.Writer, spans []Span, opts TreeOptions) error {
	ptrs := make([]*Span, len(spans))
	for i := range spans {
		ptrs[i] = &spans[i]
	}
	p := NewTreePrinter(w, opts)
	p.Print(ptrs)
	return p.Finish()
}

// TreePrinter prints traces as [WriteTree] does, a batch at a time, for a
// caller that prints each trace once it is complete: the spans printed
// count against opts.MaxSpans across the batches, and [TreePrinter.Finish]
// says how many were left out. It writes to w in pieces of about 64 KiB
// (a small batch at once), never part of a line.
type TreePrinter struct {
	tw      treeWriter
	spare   [][][]byte     // printParallel's spare chunks, per processor
	mu      sync.Mutex     // guards scratch
	scratch []*prepScratch // Prepare's spare scratch space
}

// treeFlushSize is how much output TreePrinter gathers before it writes.
const treeFlushSize = 64 << 10

// NewTreePrinter returns a printer writing to w.
func NewTreePrinter(w io.Writer, opts TreeOptions) *TreePrinter {
	return &TreePrinter{tw: treeWriter{w: w, opts: opts}}
}

// Print prints the traces of spans, in the order their roots started, and
// writes them out. Once opts.MaxSpans spans are printed it only counts.
func (p *TreePrinter) Print(spans []*Span) error {
	tw := &p.tw
	tw.total += len(spans)
	if tw.full() {
		return tw.err
	}
	traces := groupTraces(spans)
	if tw.opts.MaxSpans == 0 {
		// No limit to count: the traces can be laid out side by side.
		p.printParallel(traces)
		return tw.err
	}
	for _, t := range traces {
		if tw.full() {
			break
		}
		t.write(tw)
		if len(tw.buf) >= treeFlushSize {
			tw.flush()
		}
	}
	tw.flush()
	return tw.err
}

// printWindow bounds how many traces, and about how many spans,
// printParallel lays out before it writes them: the output held. A
// window of many spans keeps both processors busy when one trace is most
// of them.
const (
	printWindow      = 1024
	printWindowSpans = 4096
)

// printParallel prints traces as Print does, laying them out on every
// processor: at clrotel run's exit, the program gone, the printing is
// what the user waits for. The output is the same. Each processor lays
// its traces out one after another in pieces of about treeFlushSize
// (chunks), which are written out in the traces' order and then reused:
// the output is never copied to grow a buffer, and the memory it takes
// is touched once, not anew for each window.
func (p *TreePrinter) printParallel(traces []*traceTree) {
	tw := &p.tw
	workers := runtime.GOMAXPROCS(0)
	for len(p.spare) < workers {
		p.spare = append(p.spare, nil)
	}
	type laid struct {
		worker   int
		from, to chunkPos
	}
	for start := 0; start < len(traces) && tw.err == nil; {
		end, n := start, 0
		for end < len(traces) && end-start < printWindow && n < printWindowSpans {
			n += len(traces[end].spans)
			end++
		}
		window := traces[start:end]
		start = end
		at := make([]laid, len(window))
		ws := make([]treeWriter, min(workers, len(window)))
		var next atomic.Int64
		var wg sync.WaitGroup
		for w := range ws {
			ws[w].opts, ws[w].spare = tw.opts, p.spare[w]
			ws[w].buf = ws[w].takeChunk()
			wg.Go(func() {
				o := &ws[w]
				for {
					i := int(next.Add(1) - 1)
					if i >= len(window) {
						return
					}
					from := o.pos()
					window[i].write(o)
					at[i] = laid{w, from, o.pos()}
				}
			})
		}
		wg.Wait()
		for _, a := range at {
			o := &ws[a.worker]
			for c := a.from.chunk; c <= a.to.chunk; c++ {
				out := o.chunkAt(c)
				if c == a.to.chunk {
					out = out[:a.to.off]
				}
				if c == a.from.chunk {
					out = out[a.from.off:]
				}
				tw.emit(out)
			}
		}
		for w := range ws {
			o := &ws[w]
			tw.printed += o.printed
			o.spare = append(o.spare, o.buf[:0])
			for _, c := range o.chunks {
				o.spare = append(o.spare, c[:0])
			}
			p.spare[w] = o.spare
		}
	}
	tw.flush()
}

// chunkPos is a place in a worker's output: a chunk, and an offset in it.
type chunkPos struct{ chunk, off int }

// pos is where tw's output stands.
func (tw *treeWriter) pos() chunkPos { return chunkPos{len(tw.chunks), len(tw.buf)} }

// chunkAt returns tw's chunk c, the one being filled after the full ones.
func (tw *treeWriter) chunkAt(c int) []byte {
	if c == len(tw.chunks) {
		return tw.buf
	}
	return tw.chunks[c]
}

// takeChunk returns an empty chunk, a spare one if there is.
func (tw *treeWriter) takeChunk() []byte {
	if n := len(tw.spare); n > 0 {
		c := tw.spare[n-1]
		tw.spare = tw.spare[:n-1]
		return c
	}
	// Room for a span's lines past the size at which the chunk is full.
	return make([]byte, 0, treeFlushSize+treeFlushSize/2)
}

// emit writes out, a run of whole lines, in order with the output
// gathered: a large one at once, a small one with what follows.
func (tw *treeWriter) emit(out []byte) {
	if len(out) >= treeFlushSize {
		tw.flush()
		if tw.err == nil {
			_, tw.err = tw.w.Write(out)
		}
		return
	}
	tw.buf = append(tw.buf, out...)
	if len(tw.buf) >= treeFlushSize {
		tw.flush()
	}
}

// Full says whether the printer prints no more spans (MaxSpans reached,
// or a write failed): the caller need not keep spans for it, only count
// them with [TreePrinter.Skip].
func (p *TreePrinter) Full() bool { return p.tw.full() }

// Skip counts n spans that were not handed to Print, for Finish's count.
func (p *TreePrinter) Skip(n int) { p.tw.total += n }

// Finish says how many spans were left out, if any, and returns the first
// write error.
func (p *TreePrinter) Finish() error {
	tw := &p.tw
	if n := tw.total - tw.printed; n > 0 && tw.err == nil {
		tw.buf = fmt.Appendf(tw.buf, "... %d more %s\n", n, plural(n, "span"))
	}
	tw.flush()
	return tw.err
}

// traceTree is one trace's spans, linked.
type traceTree struct {
	id       string
	spans    []*Span          // by start time (into the batch printed)
	children map[string][]int // span id -> indexes of its children
	roots    []int            // spans whose parent was not received
	first    time.Time        // the earliest root start
}

// groupTraces splits spans by trace id and orders the traces by the start
// of their first root (ties by id, so that the output is deterministic).
func groupTraces(spans []*Span) []*traceTree {
	byID := map[string]*traceTree{}
	var traces []*traceTree
	for _, s := range spans {
		t := byID[s.TraceID]
		if t == nil {
			t = &traceTree{id: s.TraceID}
			byID[s.TraceID] = t
			traces = append(traces, t)
		}
		t.spans = append(t.spans, s)
	}
	for _, t := range traces {
		t.link()
	}
	sort.SliceStable(traces, func(i, j int) bool {
		if !traces[i].first.Equal(traces[j].first) {
			return traces[i].first.Before(traces[j].first)
		}
		return traces[i].id < traces[j].id
	})
	return traces
}

func (t *traceTree) link() {
	// Order by start once; children and roots then come out in that order.
	slices.SortStableFunc(t.spans, func(a, b *Span) int { return a.Start.Compare(b.Start) })
	ids := make(map[string]bool, len(t.spans))
	for _, s := range t.spans {
		ids[s.SpanID] = true
	}
	t.children = map[string][]int{}
	for i, s := range t.spans {
		if s.ParentSpanID == "" || s.ParentSpanID == s.SpanID || !ids[s.ParentSpanID] {
			t.roots = append(t.roots, i)
		} else {
			t.children[s.ParentSpanID] = append(t.children[s.ParentSpanID], i)
		}
	}
	if len(t.roots) > 0 {
		t.first = t.spans[t.roots[0]].Start
	} else if len(t.spans) > 0 {
		t.first = t.spans[0].Start
	}
}

func (t *traceTree) write(tw *treeWriter) {
	tw.buf = fmt.Appendf(tw.buf, "trace %s  (%d %s%s)\n", t.id, len(t.spans), plural(len(t.spans), "span"), t.services())
	done := make([]bool, len(t.spans))
	tops := slices.Clone(t.roots)
	// Spans whose parents form a cycle (malformed input) are reachable
	// from no root; they are printed as roots of their own.
	reach(t, t.roots, done)
	for i := range t.spans {
		if !done[i] {
			tops = append(tops, i)
			reach(t, []int{i}, done)
		}
	}
	clear(done)
	for n, i := range tops {
		tw.span(t, i, n == len(tops)-1, true, done)
	}
}

// reach marks the spans from and below them as done.
func reach(t *traceTree, from []int, done []bool) {
	for _, i := range from {
		if done[i] {
			continue
		}
		done[i] = true
		reach(t, t.children[t.spans[i].SpanID], done)
	}
}

// services lists the service names of a trace's spans, first seen first.
func (t *traceTree) services() string {
	var names []string
	for _, s := range t.spans {
		if name, ok := s.Resource["service.name"].(string); ok && name != "" && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return ", service " + strings.Join(names, ", ")
}

func (t *traceTree) hasSpan(id string) bool {
	for _, s := range t.spans {
		if s.SpanID == id {
			return true
		}
	}
	return false
}

type treeWriter struct {
	w       io.Writer
	opts    TreeOptions
	total   int
	printed int
	err     error
	buf     []byte // output not yet written

	// A writer without w (one of printParallel's) keeps its output in
	// chunks: the full ones, then buf; spare holds empty ones to reuse.
	chunks [][]byte
	spare  [][]byte

	// Scratch space span reuses: the tree lines left of the current
	// span's children, and the attributes to print.
	prefix []byte
	attrs  []attr
	text   []byte // a span's own lines, when not prepared
}

// attr is an attribute to print.
type attr struct {
	key   string
	value any
}

func (tw *treeWriter) full() bool {
	return tw.err != nil || (tw.opts.MaxSpans > 0 && tw.printed >= tw.opts.MaxSpans)
}

// flush writes the output gathered, unless a write failed before; a
// writer without w starts a new chunk instead.
func (tw *treeWriter) flush() {
	if tw.w == nil {
		tw.chunks = append(tw.chunks, tw.buf)
		tw.buf = tw.takeChunk()
		return
	}
	if tw.err == nil && len(tw.buf) > 0 {
		_, tw.err = tw.w.Write(tw.buf)
	}
	tw.buf = tw.buf[:0]
}

// span prints span i of t and the spans below it. done guards against
// printing a span twice when ids repeat.
func (tw *treeWriter) span(t *traceTree, i int, last, top bool, done []bool) {
	if done[i] || tw.full() {
		return
	}
	done[i] = true
	tw.printed++
	s := t.spans[i]

	branch, cont := "├─ ", "│  "
	if last {
		branch, cont = "└─ ", "   "
	}
	// The span's own lines, laid out ahead (Prepare) or now; this span
	// adds the tree's lines left of them.
	text := s.text
	if text == nil {
		tw.text, tw.attrs = appendSpanText(tw.text[:0], s, tw.opts, tw.attrs)
		text = tw.text
	}
	nl := bytes.IndexByte(text, '\n')
	// tw.prefix is the lines down to this span's ancestors' siblings.
	b := append(tw.buf, tw.prefix...)
	b = append(b, branch...)
	b = append(b, text[:nl]...)
	if top {
		switch {
		case s.ParentSpanID == "":
		case s.ParentSpanID == s.SpanID || t.hasSpan(s.ParentSpanID):
			b = append(b, " (parent cycle)"...)
		default:
			b = append(b, " (orphan)"...)
		}
		if tid, ok := s.Attrs["thread.id"]; ok {
			b = fmt.Appendf(b, "  [thread %v]", tid)
		}
	}
	b = append(b, '\n')

	var kids []int
	for _, k := range t.children[s.SpanID] {
		if !done[k] {
			kids = append(kids, k)
		}
	}
	// Details hang below the name, beside the line down to the children.
	depth := len(tw.prefix)
	tw.prefix = append(tw.prefix, cont...)
	// detail shares prefix's spare room: it is done with before the
	// children extend prefix.
	detail := append(tw.prefix, "   "...)
	if len(kids) > 0 {
		detail = append(tw.prefix, "│  "...)
	}
	for rest := text[nl+1:]; len(rest) > 0; {
		nl := bytes.IndexByte(rest, '\n')
		b = append(b, detail...)
		b = append(b, rest[:nl+1]...)
		rest = rest[nl+1:]
	}
	tw.buf = b
	if len(tw.buf) >= treeFlushSize {
		tw.flush() // a span's lines are whole
	}
	for n, k := range kids {
		tw.span(t, k, n == len(kids)-1, false, done)
	}
	tw.prefix = tw.prefix[:depth]
}

// Prepare lays out the lines of spans that do not depend on their place
// in the tree (name and duration, error, attributes and events) ahead of
// their printing, which then only adds the tree's lines left of them: a
// caller that gets spans well before it prints them (clrotel run, while
// its command runs) takes that work off the printing. Prepare may be
// called from several goroutines at once, each with spans of its own;
// the spans must be printed by this printer.
func (p *TreePrinter) Prepare(spans []Span) {
	sc := p.takeScratch()
	// Laid out one after another in the scratch buffer, then copied to
	// one allocation of the exact size: no buffer grown span by span.
	sc.text, sc.ends = sc.text[:0], sc.ends[:0]
	for i := range spans {
		sc.text, sc.attrs = appendSpanText(sc.text, &spans[i], p.tw.opts, sc.attrs)
		sc.ends = append(sc.ends, len(sc.text))
	}
	all := bytes.Clone(sc.text)
	from := 0
	for i, end := range sc.ends {
		spans[i].text = all[from:end:end]
		from = end
	}
	p.mu.Lock()
	p.scratch = append(p.scratch, sc)
	p.mu.Unlock()
}

// takeScratch returns scratch space for Prepare, a spare one if there
// is. The spares are kept as long as the printer (a sync.Pool would drop
// them at each collection, and Prepare's buffer would grow anew).
func (p *TreePrinter) takeScratch() *prepScratch {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.scratch); n > 0 {
		sc := p.scratch[n-1]
		p.scratch = p.scratch[:n-1]
		return sc
	}
	return &prepScratch{}
}

// prepScratch is Prepare's scratch space.
type prepScratch struct {
	text  []byte
	ends  []int
	attrs []attr
}

// appendSpanText appends the lines of s that do not depend on its place
// in the tree, each ending in a newline, none holding another: its name
// and duration, then the error, attributes and events printed under it.
// attrs is scratch space, returned for reuse.
func appendSpanText(b []byte, s *Span, opts TreeOptions, attrs []attr) ([]byte, []attr) {
	if s.Name == "" {
		b = append(b, "(no name)"...)
	} else {
		b = appendOneLine(b, s.Name)
	}
	b = append(b, "  "...)
	b = appendDuration(b, s.Duration())
	b = append(b, '\n')
	if s.StatusCode == "error" {
		b = append(b, "ERROR"...)
		if s.StatusMsg != "" {
			b = append(b, ": "...)
			b = appendOneLine(b, s.StatusMsg)
		}
		b = append(b, '\n')
	}
	if !opts.Attrs {
		return b, attrs
	}
	attrs = attrs[:0]
	for k, v := range s.Attrs {
		if !slices.Contains(opts.Hide, k) {
			attrs = append(attrs, attr{k, v})
		}
	}
	slices.SortFunc(attrs, func(a, b attr) int { return strings.Compare(a.key, b.key) })
	for _, a := range attrs {
		b = appendOneLine(b, a.key)
		b = append(b, '=')
		b = appendValue(b, a.value)
		b = append(b, '\n')
	}
	for _, e := range s.Events {
		b = append(b, "! "...)
		b = appendOneLine(b, e.Name)
		b = appendEventSummary(b, e)
		b = append(b, '\n')
	}
	return b, attrs
}

// appendEventSummary renders an event's attributes after its name: ":
// Type: message" for an exception, else " key=value ..." sorted by key.
func appendEventSummary(b []byte, e Event) []byte {
	if typ, ok := e.Attrs["exception.type"].(string); ok {
		b = append(b, ": "...)
		b = appendOneLine(b, typ)
		if msg, ok := e.Attrs["exception.message"].(string); ok && msg != "" {
			b = append(b, ": "...)
			b = appendOneLine(b, msg)
		}
		return b
	}
	keys := make([]string, 0, len(e.Attrs))
	for k := range e.Attrs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b = append(b, ' ')
		b = appendOneLine(b, k)
		b = append(b, '=')
		b = appendValue(b, e.Attrs[k])
	}
	return b
}

// appendValue renders an attribute value on one line: strings quoted,
// arrays in brackets, maps as {key=value ...} sorted by key.
func appendValue(b []byte, v any) []byte {
	switch x := v.(type) {
	case string:
		return appendQuoted(b, x)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case bool:
		return strconv.AppendBool(b, x)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendValue(b, e)
		}
		return append(b, ']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ' ')
			}
			b = appendOneLine(b, k)
			b = append(b, '=')
			b = appendValue(b, x[k])
		}
		return append(b, '}')
	case []byte:
		return fmt.Appendf(b, "0x%x", x)
	case float64:
		return strconv.AppendFloat(b, x, 'g', -1, 64)
	case nil:
		return append(b, "null"...)
	}
	// No type the receiver decodes; kept on one line all the same.
	return appendOneLine(b, fmt.Sprint(v))
}

// appendQuoted appends strconv.Quote(s). Printable ASCII other than the
// quote and the backslash is copied as it is; only the runs of other
// bytes go through strconv, which quotes rune by rune (and an invalid
// byte by itself), so quoting them apart gives the same text.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		j := i
		for j+8 <= len(s) && plainWord(s[j:j+8]) {
			j += 8
		}
		for j < len(s) && plainASCII(s[j]) {
			j++
		}
		b = append(b, s[i:j]...)
		if j == len(s) {
			break
		}
		switch s[j] {
		case '"', '\\':
			b = append(b, '\\', s[j])
			i = j + 1
			continue
		}
		k := j + 1
		for k < len(s) && s[k] >= utf8.RuneSelf {
			k++
		}
		// Quote in place, then drop the quotes strconv adds.
		at := len(b)
		b = strconv.AppendQuote(b, s[j:k])
		b = append(b[:at], b[at+1:len(b)-1]...)
		i = k
	}
	return append(b, '"')
}

// plainWord says whether the 8 bytes of w are all plainASCII, testing
// them together: none below ' ', none at or above 0x7f, no '"' nor '\\'.
func plainWord(w string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
	zero := func(v uint64) uint64 { return (v - ones) & ^v & highs } // a zero byte
	below := (x - ones*' ') & ^x & highs                             // a byte below ' '
	return x&highs == 0 && below|zero(x^(ones*'"'))|zero(x^(ones*'\\'))|zero(x^(ones*0x7f)) == 0
}

// plainASCII is a byte strconv.Quote copies as it is.
func plainASCII(c byte) bool { return plainBytes[c] }

// plainBytes says which bytes strconv.Quote copies as they are: printable
// ASCII but the quote and the backslash. A table, as it is asked of every
// byte of every value printed.
var plainBytes = func() (t [256]bool) {
	for c := ' '; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendOneLine appends s with its control characters escaped, so that a
// value cannot break the tree's lines.
func appendOneLine(b []byte, s string) []byte {
	// The control characters are ASCII, and no byte of a UTF-8 sequence
	// is: a byte scan finds them.
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c == 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return append(b, s...)
	}
	for _, r := range s {
		if isControl(r) {
			q := strconv.QuoteRune(r)
			b = append(b, q[1:len(q)-1]...)
		} else {
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}

func isControl(r rune) bool { return r < ' ' || r == 0x7f }

// appendDuration appends formatDuration(d).
func appendDuration(b []byte, d time.Duration) []byte {
	return append(b, formatDuration(d)...)
}

// formatDuration renders d in the unit a person reads at a glance, with
// at most three decimals and no trailing zeros: 500ns, 15µs, 1.5µs,
// 2.603ms, 1.2s, 1m30s.
func formatDuration(d time.Duration) string {
	if d < 0 {
		if d == math.MinInt64 {
			d++
		}
		return "-" + formatDuration(-d)
	}
	if d < time.Microsecond {
		return strconv.FormatInt(int64(d), 10) + "ns"
	}
	if d < time.Millisecond {
		return decimals(float64(d)/float64(time.Microsecond)) + "µs"
	}
	// Round first, so that 999.9996ms reads 1s rather than 1000ms.
	if r := d.Round(time.Microsecond); r < time.Second {
		return decimals(float64(r)/float64(time.Millisecond)) + "ms"
	}
	if r := d.Round(time.Millisecond); r < time.Minute {
		return decimals(r.Seconds()) + "s"
	}
	return d.Round(time.Millisecond).String()
}

// decimals formats v with at most three decimals and no trailing zeros.
func decimals(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// plural returns word for n == 1, else word+"s".
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
