// Package ccapture tests that the record format of profiler/capture.h
// (symlinked here, with what it includes, so the go command hashes it) and
// package capture agree: every record kind, record flag and size, the
// header as the hooks write it, an exit record's fold part as fold.c
// writes it, and the span id both sides derive; and that ring.h's
// producer and capture.Ring keep every record in order through bursts
// (burst space, early returns to the start, jumps over an unread pad).
// Test-only: nothing imports it.
package ccapture
