package draining

import "time"

// Loop is the drainer's loop as Finish ends it.
type Loop interface {
	// Finish stops the loop after a last pass and waits at most wait for
	// it to end; Wait waits again. Each reports whether it ended.
	Finish(wait time.Duration) bool
	Wait(wait time.Duration) bool
}

// Export is the span export the drainer feeds.
type Export interface {
	Stalled() bool // the collector is not answering
	StopWaiting()  // full export queues drop instead of waiting for room
}

// LastWait is how long Finish waits for the loop once the export no
// longer waits for room.
const LastWait = time.Second

// Finish ends the drain at exit, within budget: every record still in
// the rings is drained and ends up exported or counted. Against a
// collector not answering, the drainer does not wait for room in the
// export queue at all; otherwise it waits at most half the budget, and
// then, with the collector not keeping up (warn is called), no more. It
// reports whether the loop ended.
func Finish(loop Loop, export Export, budget time.Duration, warn func()) bool {
	if export.Stalled() {
		export.StopWaiting()
	}
	if loop.Finish(budget / 2) {
		return true
	}
	warn()
	export.StopWaiting()
	return loop.Wait(LastWait)
}
