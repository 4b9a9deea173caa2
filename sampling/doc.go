// Package sampling holds the sampling configuration and its reference
// semantics: the OTEL_TRACES_SAMPLER family, per-method rules and a rate
// limit. The decision itself is made in C, in the Enter hook of a trace's
// root call, from the parameters computed here (Bound, RateLimit); this
// package's Decide is the reference the C path is tested against. The
// hook's strategy blocks are kept in step with the sampling in force by
// Publisher, through a Blocks interface the profiler answers from C.
//
// It must not call the runtime or use cgo.
package sampling
