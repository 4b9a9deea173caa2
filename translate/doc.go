// Package translate turns the records the hooks write into the capture
// rings into spans: each enter, leave, exception, serving or Activity
// record becomes a call on an otelbridge.Bridge, with the record's values
// decoded and rendered (package values) and what was folded into a frame
// added (package folding).
//
// It owns the meaning of a record's flags and payload once decoded
// (package capture decodes them). It does not walk the rings, free thread
// slots, shed load or call the runtime: the profiler's drainer does that,
// and hands it one record at a time. What it needs to know of a method
// (its name, its plan, an exact instantiation) it asks a Methods.
//
// A Translator is used by one goroutine: it reuses its decoding and
// rendering buffers from one record to the next.
package translate
