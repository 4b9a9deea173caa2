// Package serving holds the rule that turns a long-running service's
// requests into traces of their own: which frames serve independent units
// of work (a request loop, a queue consumer, Main running a service), and
// the operator's settings for it. The hooks apply the rule in C on every
// call (profiler/serving.h); Due is its Go reference, which
// profiler/internal/cserving checks the C one against. Backlog bounds what
// the drainer holds of a frame's first calls, made before it could be
// known to serve, until it does (they become traces of their own) or not.
//
// It decides nothing about sampling or folding, and must not touch the
// runtime.
package serving
