package main

/*
#include "queue.h"
*/
import "C"

import (
	"fmt"
	"sync"

	"github.com/clrotel/clrotel/ambient"
)

// queueState is what queue.c needs from Go once: Delegate._target's
// offset, found when the first queuing method is compiled.
type queueState struct {
	mu     sync.Mutex
	target bool
}

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
