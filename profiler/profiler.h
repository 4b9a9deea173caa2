// profiler.h: declarations shared by the C files of the profiler library.
#ifndef CLROTEL_PROFILER_H
#define CLROTEL_PROFILER_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include "clrapi.h"
#include "clrrt.h"
#include "guard.h"
#include "capture.h"
#include "values.h"
#include "eltargs.h"
#include "safecopy.h"

// What Go's initialisation hands back to the C layer.
typedef struct clr_init_result {
    uint32_t event_mask;
    uint32_t event_mask_high;
    clr_capture_config capture;
    clr_value_limits values;
    uint32_t plan_table_size; // power of two
} clr_init_result;

// Signal handling around the Go runtime (signals.c).
void clr_signals_install(void);
void clr_abort_hook_install(void);
int clr_abort_requested(void);
void clr_abort_wait(void);
void clr_abort_flushed(void);

// A larger alternate signal stack for the calling thread (signals.c);
// clr_alt_stack_init(0) leaves the runtime's alone.
int clr_alt_stack_init(size_t size);
void clr_thread_alt_stack(void);

// Verdicts on functions and modules the JIT-time caches had no room for
// (callbacks.c, startup.c): asked again each time.
uint64_t clr_verdicts_uncached(void);

// Whether the runtime reported loading module mid (clrinfo.c).
int clr_module_known(uintptr_t mid);

// Go may only run on a CLR thread with the runtime's activation signal
// (SIGRTMIN, used to suspend threads for GC) blocked: its handler would run
// on the small goroutine stack of the thread's extra M and overflow it.
#define CLR_BLOCK_ACTIVATION(saved)                                            \
    do {                                                                       \
        sigset_t b_;                                                           \
        sigemptyset(&b_);                                                      \
        sigaddset(&b_, SIGRTMIN);                                              \
        pthread_sigmask(SIG_BLOCK, &b_, &(saved));                             \
    } while (0)
#define CLR_RESTORE_ACTIVATION(saved) pthread_sigmask(SIG_SETMASK, &(saved), NULL)

// Assembly trampolines (hooks_amd64.S): save the float argument registers
// the runtime's slow-path stubs do not preserve, then call the C bodies.
void clr_enter_trampoline(uintptr_t client_id, uintptr_t elt_info);
void clr_leave_trampoline(uintptr_t client_id, uintptr_t elt_info);
void clr_tailcall_trampoline(uintptr_t client_id, uintptr_t elt_info);

#endif
