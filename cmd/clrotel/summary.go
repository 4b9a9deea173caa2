package main

import (
	"fmt"
	"io"

	"github.com/clrotel/clrotel/folding"
	"github.com/clrotel/clrotel/otlpsink"
)

// busiestShown is how many methods the closing table lists.
const busiestShown = 10

// runSummary gathers, a span at a time, what clrotel run's closing lines
// say of every span received, so that the spans themselves need not be
// kept: how many, in how many traces, what was folded into them, and the
// busiest methods. It is not safe for concurrent use.
type runSummary struct {
	spans   int
	traces  map[string]struct{}
	folded  foldedTally
	methods otlpsink.MethodTally
}

func (s *runSummary) add(sp *otlpsink.Span) {
	if s.traces == nil {
		s.traces = map[string]struct{}{}
	}
	s.spans++
	s.traces[sp.TraceID] = struct{}{}
	s.folded.add(sp)
	s.methods.Add(*sp)
}

// write prints the summary line, what was folded, and the busiest methods
// by calls, from the spans and the method metrics (points).
func (s *runSummary) write(w io.Writer, points []otlpsink.Point) error {
	_, err := fmt.Fprintf(w, "clrotel: %d %s in %d %s\n",
		s.spans, plural(s.spans, "span"), len(s.traces), plural(len(s.traces), "trace"))
	if err != nil {
		return err
	}
	if err := s.folded.write(w); err != nil {
		return err
	}
	if _, err := fmt.Fprintln(w, "clrotel: the busiest methods (folded: calls folded into other spans, counted by the method metrics; re-JIT: counted until re-JIT-compiled without hooks):"); err != nil {
		return err
	}
	return otlpsink.WriteBusiest(w, s.methods.Busiest(points, busiestShown))
}

// foldedTally adds up the calls folded into the spans received, by the
// method the spans' top lists name (each span lists its top few, so the
// times are lower bounds).
type foldedTally struct {
	total  int64
	approx bool
	byName map[string]*folding.Entry
	names  []string // by Entry.Fn
}

func (f *foldedTally) add(s *otlpsink.Span) {
	n, _ := s.Attrs[string(folding.KeyCount)].(int64)
	f.total += n
	if s.Attrs[string(folding.KeyApproximate)] == true {
		f.approx = true
	}
	top, _ := s.Attrs[string(folding.KeyTop)].([]any)
	for _, x := range top {
		str, _ := x.(string)
		name, calls, d, ok := folding.ParseTop(str)
		if !ok {
			continue
		}
		if f.byName == nil {
			f.byName = map[string]*folding.Entry{}
		}
		e := f.byName[name]
		if e == nil {
			e = &folding.Entry{Fn: uint32(len(f.names))}
			f.byName[name] = e
			f.names = append(f.names, name)
		}
		e.Calls += calls
		e.Time += d
	}
}

// write lists the folded methods by time after the total, if any calls
// were folded.
func (f *foldedTally) write(w io.Writer) error {
	if f.total == 0 {
		return nil
	}
	entries := make([]folding.Entry, 0, len(f.byName))
	for _, e := range f.byName {
		entries = append(entries, *e)
	}
	_, err := fmt.Fprintf(w, "clrotel: %d more calls were folded into these spans (clrotel.folded.*); by the spans' top lists:\n%s\n",
		f.total, folding.Summary(entries, func(i uint32) string { return f.names[i] }, 10))
	if err == nil && f.approx {
		_, err = fmt.Fprintln(w, "clrotel: folded methods were re-JIT-compiled without hooks: their calls after that are not in these counts (clrotel.folded.approximate)")
	}
	return err
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
