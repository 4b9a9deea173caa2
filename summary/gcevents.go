package summary

import "fmt"

// GCSession is what the EventPipe session for the runtime's GC events
// (profiler/gcevents.c) reported: how collections told workitems.c of
// the objects they moved, beyond the profiling callbacks.
type GCSession struct {
	State             int // 0: no session (.NET Core 3.1, or work items off); < 0: it did not start
	Events, Malformed uint64
}

// Note is the exit report's line on the session, empty when there was
// none; warn: collections forgot items they moved.
func (g GCSession) Note() (text string, warn bool) {
	switch {
	case g.State == 0:
		return "", false
	case g.State < 0:
		return "queued work: the EventPipe session for the runtime's GC events did not start: objects collections move are not reported, and work items moved are forgotten at the next collection", true
	case g.Malformed > 0:
		return fmt.Sprintf("queued work: %d GC range events read from the EventPipe session, %d ignored (a payload layout not known): their collections forgot the items they moved", g.Events, g.Malformed), true
	}
	return fmt.Sprintf("queued work: %d GC range events read from the EventPipe session", g.Events), false
}
