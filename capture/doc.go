// Package capture reads what the profiler's C hooks record on CLR threads.
//
// Each CLR thread that runs a traced method owns one single-producer ring
// of fixed-layout records (enter, leave, tailcall, unwind, exception). The C
// side writes them without locks or allocation and counts what it drops;
// this package is the consumer: it walks a ring and decodes its records.
//
// The record layout is shared with profiler/capture.h. This package must
// not call the runtime, use cgo, or block the producer: it only reads
// memory the producer has published and then releases it.
package capture
