// Package shedding decides how many new traces per second the profiler
// may start when its span work (decoding, rendering and encoding what the
// hooks recorded) would otherwise take more CPU than its budget: a
// service under load keeps its throughput, and what is given up is whole
// traces, refused at their root, never calls inside a trace.
//
// The drainer reports its running totals, the CPU it used and how many
// traces it began, which the Meter cuts into windows; the Controller answers with the admission rate and
// burst that the hooks' token bucket applies at each root
// (profiler/shed.h). The package owns that rule and how shed traces read
// in the log. It must not touch the runtime, the C side or a clock: time
// comes in through Window and the Meter's arguments.
package shedding
