// Package cplan copies value plans (package planning) into the C structs
// of profiler/values.h (symlinked here so the go command hashes it), which
// the hooks read; the profiler converts the pointers it returns to its own
// cgo types of the same structs. Its tests check, from C, that both sides
// read a plan alike: every constant a plan is read by, and plans of every
// shape written out field by field.
//
// It must not free what it copies (a hook may read a plan until the
// process ends; only its tests release their copies), and it makes no
// decision about what to read: that is package planning's.
package cplan
