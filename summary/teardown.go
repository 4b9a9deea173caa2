package summary

import "fmt"

// Disarm is the line on the runtime's ELT helpers made to return at once
// for its teardown (profiler/disarm.c): n of names, -1 when libcoreclr.so's
// symbols could not be read, -2 when none were tried (nothing to say).
func Disarm(n, names int) []Line {
	if n == -2 {
		return nil
	}
	return []Line{{Info, fmt.Sprintf("teardown: %d of the runtime's %d ELT helpers return at once from now on (-1: libcoreclr.so's symbols unreadable)", n, names)}}
}

// SharedCode is what the hooks met in shared generic code and `this`
// reads (profiler/flowlayout.h, eltargs.c), reported at exit with async on.
type SharedCode struct {
	// Missing: steps whose class's layout lacked the added fields (traced
	// as plain calls); Uncached: calls of classes past the Classes a step
	// remembers (right, but asked of the runtime each time).
	Missing, Uncached uint64
	Classes           int
	// ThisDirect: `this` read from the runtime's saved registers (> 0),
	// asked of GetFunctionEnter3Info (0), or asked each time because the
	// two disagreed (< 0).
	ThisDirect int
}

// Lines is the report, in the order it is logged.
func (s SharedCode) Lines() []Line {
	var l lines
	if s.Missing > 0 {
		l.add(Warn, fmt.Sprintf("async: %d steps of shared generic code found no added fields in their class's layout: traced as plain calls", s.Missing))
	}
	if s.Uncached > 0 {
		l.add(Info, fmt.Sprintf("async: %d steps of shared generic code met a class past the %d each remembers: its layout was asked at the call", s.Uncached, s.Classes))
	}
	if s.ThisDirect < 0 {
		l.add(Info, "the runtime's saved registers disagreed with its GetFunctionEnter3Info about `this`: it is asked each time")
	} else {
		l.add(Debug, fmt.Sprintf("`this` of work items and state machines read from the runtime's saved registers: %v", s.ThisDirect > 0))
	}
	return l
}
