package planning

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"
)

// fakeClassPlanner records the classes planned; failing ones stay
// unplanned.
type fakeClassPlanner struct {
	mu      sync.Mutex
	planned map[uint64]bool
	asked   []uint64
	failing map[uint64]bool
}

func (f *fakeClassPlanner) Plan(cid uint64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, cid)
	if f.failing[cid] {
		return errors.New("no layout")
	}
	f.planned[cid] = true
	return nil
}

func (f *fakeClassPlanner) Planned(cid uint64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.planned[cid]
}

func TestRequests(t *testing.T) {
	cases := []struct {
		name      string
		depth     int
		planned   []uint64
		failing   []uint64
		requests  []uint64
		closed    bool
		wantAsked []uint64
		wantLog   []string
	}{
		{name: "each class once", depth: 8, requests: []uint64{0x10, 0x20, 0x10}, wantAsked: []uint64{0x10, 0x20}},
		{name: "planned already", depth: 8, planned: []uint64{0x10}, requests: []uint64{0x10, 0x20}, wantAsked: []uint64{0x20}},
		{name: "full queue drops", depth: 1, requests: []uint64{0x10, 0x20}, wantAsked: []uint64{0x10}},
		{name: "a failure is logged", depth: 8, failing: []uint64{0x30}, requests: []uint64{0x30},
			wantAsked: []uint64{0x30}, wantLog: []string{"class plan 0x30: no layout"}},
		{name: "closed gate asks nothing", depth: 8, closed: true, requests: []uint64{0x10}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeClassPlanner{planned: map[uint64]bool{}, failing: map[uint64]bool{}}
			for _, cid := range c.planned {
				f.planned[cid] = true
			}
			for _, cid := range c.failing {
				f.failing[cid] = true
			}
			var gate Gate
			if c.closed {
				gate.Close()
			}
			var log []string
			r := NewRequests(f, &gate, c.depth, func(format string, args ...any) { log = append(log, fmt.Sprintf(format, args...)) })
			// Queued before Run starts: the queue's depth is what bounds them.
			for _, cid := range c.requests {
				r.Request(cid)
			}
			stop := make(chan struct{})
			done := make(chan struct{})
			go func() { r.Run(stop); close(done) }()
			deadline := time.Now().Add(5 * time.Second)
			for len(r.ch) > 0 && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			close(stop)
			<-done // Run finishes the class it took before it returns
			if !reflect.DeepEqual(f.asked, c.wantAsked) {
				t.Errorf("planned %#x, want %#x", f.asked, c.wantAsked)
			}
			if !reflect.DeepEqual(log, c.wantLog) {
				t.Errorf("log %q, want %q", log, c.wantLog)
			}
		})
	}
}

func TestGateWaitsForCallUnderWay(t *testing.T) {
	var g Gate
	entered, release := make(chan struct{}), make(chan struct{})
	go g.Do(func() { close(entered); <-release })
	<-entered
	closed := make(chan struct{})
	go func() { g.Close(); close(closed) }()
	select {
	case <-closed:
		t.Fatal("Close returned while a call was under way")
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	<-closed
	if g.Do(func() { t.Error("ran after Close") }) {
		t.Error("Do reported running after Close")
	}
}
