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
// offset, found when the first queuing method is compiled (or the first
// work item's run, workcallee.go).
type queueState struct {
	mu        sync.Mutex
	target    uint32 // 0 until found
	published bool
}

// targetOffset is Delegate._target's offset, found once.
func (s *queueState) targetOffset(p *profiler) (uint32, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.target != 0 {
		return s.target, nil
	}
	cid, err := p.planner.FindType([]string{"System.Delegate"})
	if err != nil {
		return 0, fmt.Errorf("System.Delegate: %w", err)
	}
	fields, _, err := p.ambient.Fields(cid)
	if err != nil {
		return 0, fmt.Errorf("System.Delegate: %w", err)
	}
	off, ok := ambient.Find(fields, "_target")
	if !ok || off == 0 {
		return 0, fmt.Errorf("System.Delegate has no _target")
	}
	s.target = off
	return off, nil
}

// delegateTarget publishes Delegate._target's offset to queue.c, once.
func (s *queueState) delegateTarget(p *profiler) error {
	off, err := s.targetOffset(p)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.published {
		C.clr_queue_set_target_offset(C.uint32_t(off))
		s.published = true
	}
	return nil
}
