package otlpsink

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
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
	tw := &treeWriter{w: w, opts: opts, total: len(spans)}
	for _, t := range groupTraces(spans) {
		if tw.full() {
			break
		}
		t.write(tw)
	}
	if n := tw.total - tw.printed; n > 0 && tw.err == nil {
		tw.printf("... %d more %s\n", n, plural(n, "span"))
	}
	return tw.err
}

// traceTree is one trace's spans, linked.
type traceTree struct {
	id       string
	spans    []Span           // by start time
	children map[string][]int // span id -> indexes of its children
	roots    []int            // spans whose parent was not received
	first    time.Time        // the earliest root start
}

// groupTraces splits spans by trace id and orders the traces by the start
// of their first root (ties by id, so that the output is deterministic).
func groupTraces(spans []Span) []*traceTree {
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
	sort.SliceStable(t.spans, func(i, j int) bool { return t.spans[i].Start.Before(t.spans[j].Start) })
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
	tw.printf("trace %s  (%d %s%s)\n", t.id, len(t.spans), plural(len(t.spans), "span"), t.services())
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
		tw.span(t, i, "", n == len(tops)-1, true, done)
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
}

func (tw *treeWriter) full() bool {
	return tw.err != nil || (tw.opts.MaxSpans > 0 && tw.printed >= tw.opts.MaxSpans)
}

func (tw *treeWriter) printf(format string, args ...any) {
	if tw.err == nil {
		_, tw.err = fmt.Fprintf(tw.w, format, args...)
	}
}

// span prints span i of t and the spans below it. done guards against
// printing a span twice when ids repeat.
func (tw *treeWriter) span(t *traceTree, i int, prefix string, last, top bool, done []bool) {
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
	var marks string
	if top {
		switch {
		case s.ParentSpanID == "":
		case s.ParentSpanID == s.SpanID || t.hasSpan(s.ParentSpanID):
			marks = " (parent cycle)"
		default:
			marks = " (orphan)"
		}
		if tid, ok := s.Attrs["thread.id"]; ok {
			marks += fmt.Sprintf("  [thread %v]", tid)
		}
	}
	name := oneLine(s.Name)
	if name == "" {
		name = "(no name)"
	}
	tw.printf("%s%s%s  %s%s\n", prefix, branch, name, formatDuration(s.Duration()), marks)

	var kids []int
	for _, k := range t.children[s.SpanID] {
		if !done[k] {
			kids = append(kids, k)
		}
	}
	// Details hang below the name, beside the line down to the children.
	detail := prefix + cont + "   "
	if len(kids) > 0 {
		detail = prefix + cont + "│  "
	}
	if s.StatusCode == "error" {
		if s.StatusMsg == "" {
			tw.printf("%sERROR\n", detail)
		} else {
			tw.printf("%sERROR: %s\n", detail, oneLine(s.StatusMsg))
		}
	}
	if tw.opts.Attrs {
		keys := make([]string, 0, len(s.Attrs))
		for k := range s.Attrs {
			if !slices.Contains(tw.opts.Hide, k) {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			tw.printf("%s%s=%s\n", detail, oneLine(k), formatValue(s.Attrs[k]))
		}
		for _, e := range s.Events {
			tw.printf("%s! %s%s\n", detail, oneLine(e.Name), eventSummary(e))
		}
	}
	for n, k := range kids {
		tw.span(t, k, prefix+cont, n == len(kids)-1, false, done)
	}
}

// eventSummary renders an event's attributes after its name: ": Type:
// message" for an exception, else " key=value ..." sorted by key.
func eventSummary(e Event) string {
	if typ, ok := e.Attrs["exception.type"].(string); ok {
		out := ": " + oneLine(typ)
		if msg, ok := e.Attrs["exception.message"].(string); ok && msg != "" {
			out += ": " + oneLine(msg)
		}
		return out
	}
	keys := make([]string, 0, len(e.Attrs))
	for k := range e.Attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(" " + oneLine(k) + "=" + formatValue(e.Attrs[k]))
	}
	return b.String()
}

// formatValue renders an attribute value on one line: strings quoted,
// arrays in brackets, maps as {key=value ...} sorted by key.
func formatValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = formatValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = oneLine(k) + "=" + formatValue(x[k])
		}
		return "{" + strings.Join(parts, " ") + "}"
	case []byte:
		return fmt.Sprintf("0x%x", x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

// oneLine escapes control characters, so that a value cannot break the
// tree's lines.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isControl(r rune) bool { return r < ' ' || r == 0x7f }

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
