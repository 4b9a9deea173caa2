// Package quiesce is the publisher's wait in the profiler's strategy-block
// reclamation (profiler/strategy.c): after a new block is published and
// every thread has been fenced, a replaced block may be freed once each
// thread that was mid-decision (its count odd) has moved on. It reads the
// counts through a function, so it is testable without the runtime; it
// must not touch C memory itself.
package quiesce
