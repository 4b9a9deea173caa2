package methodmetrics

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/sdk/instrumentation"
)

// fakeExporter's Shutdown waits for its context, or for release.
type fakeExporter struct {
	release  chan struct{}
	err      error
	shutdown chan error // what the context said when Shutdown returned
}

func (f *fakeExporter) Shutdown(ctx context.Context) error {
	select {
	case <-f.release:
		f.shutdown <- nil
		return f.err
	case <-ctx.Done():
		f.shutdown <- ctx.Err()
		return ctx.Err()
	}
}

type exportTest struct {
	e       *Export
	starts  int
	exp     *fakeExporter
	mu      sync.Mutex
	warns   []string
	stalled bool
}

func newExportTest(startErr error) *exportTest {
	x := &exportTest{exp: &fakeExporter{release: make(chan struct{}), shutdown: make(chan error, 1)}}
	x.e = &Export{
		Registry: New(DefaultSettings(), "svc", instrumentation.Scope{}),
		Start: func() (Exporter, error) {
			x.starts++
			if startErr != nil {
				return nil, startErr
			}
			return x.exp, nil
		},
		Stalled:     func() bool { return x.stalled },
		StalledWait: 20 * time.Millisecond,
		Warnf: func(f string, a ...any) {
			x.mu.Lock()
			defer x.mu.Unlock()
			x.warns = append(x.warns, fmt.Sprintf(f, a...))
		},
	}
	return x
}

func wait(t *testing.T, done <-chan struct{}) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Shutdown never finished")
	}
}

// Nothing to export: no exporter is ever made.
func TestExportNeverActive(t *testing.T) {
	x := newExportTest(nil)
	wait(t, x.e.Shutdown(context.Background()))
	if x.starts != 0 {
		t.Errorf("%d exporters started", x.starts)
	}
	x.e.Begin()
	if x.starts != 0 {
		t.Errorf("started after Shutdown")
	}
}

// Started once however often begun; Shutdown waits for the last export.
func TestExportStartsOnce(t *testing.T) {
	x := newExportTest(nil)
	x.e.Begin()
	x.e.Begin()
	if x.starts != 1 {
		t.Fatalf("%d starts, want 1", x.starts)
	}
	done := x.e.Shutdown(context.Background())
	select {
	case <-done:
		t.Fatal("Shutdown done before the last export")
	case <-time.After(10 * time.Millisecond):
	}
	close(x.exp.release)
	wait(t, done)
	if err := <-x.exp.shutdown; err != nil {
		t.Errorf("last export cut short: %v", err)
	}
}

// Active but not yet begun at exit (OnActive's goroutine not run yet):
// started by Shutdown so that the last export is sent.
func TestExportActiveAtExit(t *testing.T) {
	x := newExportTest(nil)
	x.e.Registry.Activate()
	close(x.exp.release)
	wait(t, x.e.Shutdown(context.Background()))
	if x.starts != 1 {
		t.Errorf("%d starts, want 1", x.starts)
	}
}

// A collector found stalled is not waited for beyond StalledWait; a
// failed export is logged.
func TestExportStalled(t *testing.T) {
	x := newExportTest(nil)
	x.e.Begin()
	x.stalled = true
	start := time.Now()
	wait(t, x.e.Shutdown(context.Background()))
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("waited %v", took)
	}
	if err := <-x.exp.shutdown; !errors.Is(err, context.Canceled) {
		t.Errorf("export ended with %v, want it cancelled", err)
	}
	if len(x.warns) != 1 || !strings.HasPrefix(x.warns[0], "exit: method metrics not exported") {
		t.Errorf("warnings %q", x.warns)
	}
}

// An exporter that cannot be made is said once, and not tried again.
func TestExportStartFails(t *testing.T) {
	x := newExportTest(errors.New("no endpoint"))
	x.e.Begin()
	x.e.Begin()
	wait(t, x.e.Shutdown(context.Background()))
	if x.starts != 1 || len(x.warns) != 1 || x.warns[0] != "no endpoint; method metrics are not exported" {
		t.Errorf("%d starts, warnings %q", x.starts, x.warns)
	}
}

func TestNilExportShutsDownAtOnce(t *testing.T) {
	var e *Export
	select {
	case <-e.Shutdown(context.Background()):
	case <-time.After(5 * time.Second):
		t.Fatal("a nil Export's Shutdown did not close its channel")
	}
}
