package planning

import "sync"

// Gate guards the runtime calls made from Go's own threads (the class
// plans asked for by the drainer, the delegates' method names, the
// warm-up): once Shutdown has returned to the runtime, what they would ask
// about is being torn down.
type Gate struct {
	mu     sync.RWMutex
	closed bool
}

// Do runs fn unless the gate is closed, and reports whether it ran. Close
// waits for the fn under way.
func (g *Gate) Do(fn func()) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.closed {
		return false
	}
	fn()
	return true
}

// Close waits for the calls under way and lets no more start.
func (g *Gate) Close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

// ClassPlanner plans a class by its ClassID (Planner).
type ClassPlanner interface {
	Plan(cid uint64) error
	Planned(cid uint64) bool
}

// Requests are the classes the hooks met without a plan (written as
// VT_NOPLAN): the drainer asks for them without waiting, and Run plans
// them on a goroutine of its own, each once, while the gate is open.
type Requests struct {
	planner ClassPlanner
	gate    *Gate
	debugf  func(format string, args ...any)

	mu     sync.Mutex
	queued map[uint64]bool
	ch     chan uint64
}

// NewRequests makes a queue of at most depth waiting classes.
func NewRequests(pl ClassPlanner, gate *Gate, depth int, debugf func(format string, args ...any)) *Requests {
	return &Requests{planner: pl, gate: gate, debugf: debugf, queued: map[uint64]bool{}, ch: make(chan uint64, depth)}
}

// Request asks for a class's plan without waiting; a full queue drops the
// request (the class is met again).
func (r *Requests) Request(cid uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.queued[cid] || r.planner.Planned(cid) {
		return
	}
	select {
	case r.ch <- cid:
		r.queued[cid] = true
	default:
	}
}

// Run plans the requested classes until stop closes.
func (r *Requests) Run(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case cid := <-r.ch:
			r.gate.Do(func() {
				if err := r.planner.Plan(cid); err != nil {
					r.debugf("class plan %#x: %v", cid, err)
				}
			})
		}
	}
}
