// rejit.h: folded methods re-JIT-compiled without hooks (rejit.c).
#ifndef CLROTEL_REJIT_H
#define CLROTEL_REJIT_H

#include <stdint.h>

#include "clrapi.h"
#include "capture.h"

struct clr_runtime;
struct clr_slot_table;
// The runtime the ReJIT thread asks, and the slot table whose shadow stacks
// say which methods have a frame open (Go's Initialize, before it can
// submit anything).
void clr_rejit_init(const struct clr_runtime *rt, struct clr_slot_table *slots);

// Queues folded functions for RequestReJIT on the ReJIT thread (started on
// the first call). Returns how many were queued, or -1 when the runtime
// has no RequestReJIT.
int clr_rejit_submit(clr_fn **fns, uint32_t n);

// Counts: functions asked for, new code versions installed without hooks,
// requests refused or compiles failed.
uint64_t clr_rejit_requested(void);
uint64_t clr_rejit_installed(void);
uint64_t clr_rejit_failed(void);
// Shutdown (and exit, for a runtime never shut down): no request is made
// after this returns; one under way is waited for (at most 2 s).
void clr_rejit_shutdown(void);

// Functions not asked for yet because a frame of theirs was open.
uint64_t clr_rejit_waiting(void);

// For the compile callbacks (callbacks.c): whether a compile of fn (its
// first, a tier's, a ReJIT) is to keep its hooks; whether fn may be
// inlined (not selected, or folded and its code without hooks installed);
// the end of a ReJIT compile of fn; a ReJITError.
int clr_rejit_compile_wants_hooks(const clr_fn *fn);
int clr_rejit_may_inline(const clr_fn *fn);
void clr_rejit_finished(clr_fn *fn, HRESULT status);
void clr_rejit_error(clr_fn *fn);

#endif
