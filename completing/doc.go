// Package completing decides when a trace that clrotel run's built-in
// receiver is gathering is complete, so that its tree can be printed while
// the program still runs, and holds the spans of the traces that are not,
// within a bound.
//
// The profiler exports a span when its call returns, so a trace's root
// span is normally its last; spans of the trace made on other threads can
// still follow it. A trace is therefore complete once its root has arrived
// and no span came for it for a quiet time. A trace whose root never comes
// (its parent is in another process, or the program idles inside it) is
// given out after a longer quiet time, and when more spans are held than
// the bound allows, the traces heard from least recently are given out as
// they are. Nothing is complete before the run is a few seconds old, so
// that a short program's traces are all printed at its exit, together, as
// clrotel run always printed them.
//
// The caller passes the time to every call: the rule reads no clock, so
// its tests need no waiting.
package completing
