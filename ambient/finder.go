package ambient

import (
	"sync"
	"time"

	"github.com/clrotel/clrotel/selection"
)

// Modules lists the loaded modules and names their assemblies, without
// opening their metadata.
type Modules interface {
	// Modules lists the loaded modules; the slice may be reused by the
	// next call.
	Modules() []uint64
	Assembly(module uint64) (string, error)
}

// RetryEvery is how long attempts from traced methods' compiles wait after
// one failed: an app that loads DiagnosticSource but never starts an
// Activity would pay for each.
const RetryEvery = 50 * time.Millisecond

// Finder finds, once, how to read Activity.Current, and hands the plans it
// makes to Publish: the thread's part alone as soon as it can be read
// (what the hooks need to see a suppressed flow), then the whole plan once
// the app has started an Activity. Every step that can load a type runs on
// a runtime thread: Refresh is called as traced methods compile.
type Finder struct {
	Runtime Runtime
	Modules Modules
	// Publish installs a plan for the hooks; a plan of the thread's part
	// alone has no Current.
	Publish func(Plan)
	// Debugf logs why the caller's trace is not joined yet (each reason
	// once in a row).
	Debugf func(format string, args ...any)
	// Now is the clock (nil: time.Now).
	Now func() time.Time

	mu         sync.Mutex
	done       bool // the whole plan is published
	threadOnly bool // the thread's part is published
	logged     string
	failedAt   time.Time
	checked    map[uint64]bool // modules asked about: whether DiagnosticSource
}

// Refresh tries to complete the plan. Cheap until the app has loaded
// System.Diagnostics.DiagnosticSource (no Activity can exist before).
// activityCode: called for a method of that assembly (Activity's code is
// about to run), not throttled.
func (f *Finder) Refresh(activityCode bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done || (!activityCode && f.now().Sub(f.failedAt) < RetryEvery) {
		return
	}
	// Activity's own code runs from the loaded DiagnosticSource; before it
	// is loaded, only the thread's part of the plan can be.
	if !activityCode && !f.diagnosticsLoaded() {
		f.publishThreadOnly()
		return
	}
	plan, err := Build(f.Runtime)
	if err != nil {
		f.failedAt = f.now()
		if msg := err.Error(); msg != f.logged {
			f.logged = msg
			if f.Debugf != nil {
				f.Debugf("caller's trace not joined yet: %v", err)
			}
		}
		return
	}
	f.Publish(plan)
	f.done = true
}

func (f *Finder) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

// diagnosticsLoaded asks each module's assembly name once.
func (f *Finder) diagnosticsLoaded() bool {
	if f.checked == nil {
		f.checked = map[uint64]bool{}
	}
	for _, m := range f.Modules.Modules() {
		diag, ok := f.checked[m]
		if !ok {
			asm, err := f.Modules.Assembly(m)
			if err != nil {
				continue
			}
			diag = selection.DiagnosticsAssembly(asm)
			f.checked[m] = diag
		}
		if diag {
			return true
		}
	}
	return false
}

// publishThreadOnly publishes, once, a plan of the thread's part alone.
func (f *Finder) publishThreadOnly() {
	if f.threadOnly {
		return
	}
	t, err := BuildThread(f.Runtime)
	if err != nil {
		f.failedAt = f.now()
		return
	}
	f.Publish(Plan{Thread: t})
	f.threadOnly = true
}
