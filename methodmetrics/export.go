package methodmetrics

import (
	"context"
	"sync"
	"time"
)

// Exporter is a running periodic export of the metrics.
type Exporter interface {
	// Shutdown exports a last time and stops.
	Shutdown(ctx context.Context) error
}

// Export starts the registry's export when it first has something to
// export (a call folded, a named method called), so that a program in
// which nothing folds never creates the exporter, and ends it at exit.
type Export struct {
	Registry *Registry
	// Start begins the periodic export.
	Start func() (Exporter, error)
	// Stalled reports that the spans' collector was found not answering:
	// the last export is then waited for StalledWait at most.
	Stalled     func() bool
	StalledWait time.Duration
	Warnf       func(format string, args ...any)

	mu      sync.Mutex
	exp     Exporter // nil until started
	stopped bool
}

// Begin starts the export, once, unless it is stopped.
func (e *Export) Begin() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.exp != nil || e.stopped {
		return
	}
	exp, err := e.Start()
	if err != nil {
		e.Warnf("%v; method metrics are not exported", err)
		e.stopped = true
		return
	}
	e.exp = exp
}

// Shutdown exports the metrics a last time, in the background; the
// returned channel closes when done. No export starts after it. A nil
// Export (metrics off) is done at once.
func (e *Export) Shutdown(ctx context.Context) <-chan struct{} {
	if e == nil { // metrics off
		done := make(chan struct{})
		close(done)
		return done
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { <-done; cancel() }()
	if e.Registry.Active() {
		e.Begin() // active just now: its export has not started
	}
	e.mu.Lock()
	exp := e.exp
	e.stopped = true
	e.mu.Unlock()
	if exp == nil {
		close(done)
		return done
	}
	go func() {
		defer close(done)
		if err := exp.Shutdown(ctx); err != nil {
			e.Warnf("exit: method metrics not exported: %v", err)
		}
	}()
	if e.Stalled() {
		go func() {
			t := time.NewTimer(e.StalledWait)
			defer t.Stop()
			select {
			case <-t.C:
				cancel()
			case <-done:
			}
		}()
	}
	return done
}
