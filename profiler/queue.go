package main

/*
#include "async.h"
#include "capture.h"
#include "queue.h"
*/
import "C"

import (
	"fmt"
	"sync"

	"github.com/clrotel/clrotel/ambient"
	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/sampling"
)

// queueState is what queue.c needs from Go once: Delegate._target's
// offset, found when the first queuing method is compiled.
type queueState struct {
	mu     sync.Mutex
	target bool
}

// queueFunction makes f one of CoreLib's queuing methods (queue.c): no
// span; its callback arguments' closures are marked when the flow is
// suppressed.
func (p *profiler) queueFunction(f *function, fid uint64, index uint32, m *naming.Method) *function {
	mod, err := p.resolver.ModuleInfo(m.ModuleID)
	if err != nil {
		p.log.Debugf("queued work: %s: %v", m.SelectName, err)
		return f
	}
	q := flows.QueueMethod(m.Name, m.Sig.HasThis, naming.ParamTypes(mod.Meta, m.Sig))
	if q.Callbacks == 0 {
		return f
	}
	if err := p.queue.delegateTarget(p); err != nil {
		p.log.Debugf("queued work: %v", err)
		return f
	}
	var flags uint32 = C.FN_SELECTED | C.FN_QUEUE
	if q.Unsafe {
		flags |= C.FN_QUEUE_UNSAFE
	}
	f.method = bridgeMethod(m)
	f.c = newCFn(fid, index, flags, sampling.MethodSetting{})
	f.c.queue_args = C.uint16_t(q.Callbacks)
	// The flow's state is read through the thread's ExecutionContext.
	p.ambient.refresh(false)
	return f
}

// queueSuppressed is how many closures were marked as queued with the
// flow suppressed.
func queueSuppressed() uint64 { return uint64(C.clr_queue_suppressed()) }

// delegateTarget publishes Delegate._target's offset, once.
func (s *queueState) delegateTarget(p *profiler) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.target {
		return nil
	}
	cid, err := p.planner.FindType([]string{"System.Delegate"})
	if err != nil {
		return fmt.Errorf("System.Delegate: %w", err)
	}
	fields, _, err := p.ambient.Fields(cid)
	if err != nil {
		return fmt.Errorf("System.Delegate: %w", err)
	}
	off, ok := ambient.Find(fields, "_target")
	if !ok || off == 0 {
		return fmt.Errorf("System.Delegate has no _target")
	}
	C.clr_queue_set_target_offset(C.uint32_t(off))
	s.target = true
	return nil
}
