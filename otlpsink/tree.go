package otlpsink

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// TreeOptions controls WriteTree.
type TreeOptions struct {
	Attrs    bool     // print attributes and events under each span
	Hide     []string // attribute keys not to print (with Attrs)
	MaxSpans int      // 0: all; else stop after this many and say how many were left
}

// MethodKeys are the attributes every span of a method carries alike; a
// tree for people reads better without them.
var MethodKeys = []string{"code.function.name", "dotnet.module", "dotnet.assembly", "dotnet.method.return_type", "thread.id"}

// WriteTree prints spans as one indented tree per trace, traces in order of
// their first span's start, children in order of start time.
func WriteTree(w io.Writer, spans []Span, opts TreeOptions) error {
	byTrace := map[string][]Span{}
	var order []string
	for _, s := range spans {
		if _, ok := byTrace[s.TraceID]; !ok {
			order = append(order, s.TraceID)
		}
		byTrace[s.TraceID] = append(byTrace[s.TraceID], s)
	}
	first := func(id string) time.Time {
		t := byTrace[id][0].Start
		for _, s := range byTrace[id] {
			if s.Start.Before(t) {
				t = s.Start
			}
		}
		return t
	}
	sort.SliceStable(order, func(i, j int) bool { return first(order[i]).Before(first(order[j])) })

	tw := &treeWriter{w: w, opts: opts}
	for _, id := range order {
		ts := byTrace[id]
		svc := ""
		for _, s := range ts {
			if name, ok := s.Resource["service.name"].(string); ok {
				svc = name
				break
			}
		}
		tw.printf("trace %s  (%d spans, service %s)\n", id, len(ts), svc)
		ids := map[string]bool{}
		children := map[string][]Span{}
		for _, s := range ts {
			ids[s.SpanID] = true
		}
		var roots []Span
		for _, s := range ts {
			if s.ParentSpanID == "" || !ids[s.ParentSpanID] {
				roots = append(roots, s)
			} else {
				children[s.ParentSpanID] = append(children[s.ParentSpanID], s)
			}
		}
		byStart := func(l []Span) {
			sort.SliceStable(l, func(i, j int) bool { return l[i].Start.Before(l[j].Start) })
		}
		byStart(roots)
		for _, c := range children {
			byStart(c)
		}
		for i, r := range roots {
			tw.span(r, children, "", i == len(roots)-1)
		}
	}
	if tw.skipped > 0 {
		tw.printf("... %d more spans\n", tw.skipped)
	}
	return tw.err
}

type treeWriter struct {
	w       io.Writer
	opts    TreeOptions
	printed int
	skipped int
	err     error
}

func (t *treeWriter) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, args...)
	}
}

func (t *treeWriter) span(s Span, children map[string][]Span, prefix string, last bool) {
	if t.opts.MaxSpans > 0 && t.printed >= t.opts.MaxSpans {
		t.skipped += 1 + countBelow(s, children)
		return
	}
	t.printed++
	branch, cont := "├─ ", "│  "
	if last {
		branch, cont = "└─ ", "   "
	}
	orphan := ""
	if prefix == "" {
		if s.ParentSpanID != "" {
			orphan = " (orphan)"
		}
		if tid, ok := s.Attrs["thread.id"]; ok {
			orphan += fmt.Sprintf("  [thread %v]", tid)
		}
	}
	t.printf("%s%s%s  %s%s\n", prefix, branch, s.Name, FormatDuration(s.Duration()), orphan)
	if s.StatusCode == "error" {
		t.printf("%s%s   ERROR: %s\n", prefix, cont, s.StatusMsg)
	}
	if t.opts.Attrs {
		keys := make([]string, 0, len(s.Attrs))
		for k := range s.Attrs {
			if !contains(t.opts.Hide, k) {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.printf("%s%s   %s=%s\n", prefix, cont, k, formatValue(s.Attrs[k]))
		}
		for _, e := range s.Events {
			t.printf("%s%s   ! %s%s\n", prefix, cont, e.Name, eventSummary(e))
		}
	}
	kids := children[s.SpanID]
	for i, c := range kids {
		t.span(c, children, prefix+cont, i == len(kids)-1)
	}
}

func countBelow(s Span, children map[string][]Span) int {
	n := 0
	for _, c := range children[s.SpanID] {
		n += 1 + countBelow(c, children)
	}
	return n
}

func eventSummary(e Event) string {
	if typ, ok := e.Attrs["exception.type"].(string); ok {
		msg, _ := e.Attrs["exception.message"].(string)
		return ": " + typ + ": " + msg
	}
	keys := make([]string, 0, len(e.Attrs))
	for k := range e.Attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+formatValue(e.Attrs[k]))
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, " ")
}

func formatValue(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = formatValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// FormatDuration prints a duration in a unit a person reads at a glance.
func FormatDuration(d time.Duration) string {
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.1fµs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.3fms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.3fs", d.Seconds())
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
