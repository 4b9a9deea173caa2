// profiler.h: declarations shared by the C files of the profiler library.
#ifndef CLROTEL_PROFILER_H
#define CLROTEL_PROFILER_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include "clrapi.h"
#include "clrrt.h"
#include "capture.h"
#include "values.h"

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

// Guarded profiling-API calls (signals.c). Some calls take what they are
// given from the object graph: a type pointer read from an object, a class
// that object names. A reference forged by unsafe code to point at readable
// memory that holds no object makes the runtime follow a garbage type
// pointer and fault inside the call. CLR_GUARDED(hr, call) runs the call
// with this thread's guard armed: a SIGSEGV/SIGBUS inside it resumes right
// after it, with hr = CLR_E_GUARD_FAULT, instead of ending the process.
// The calls guarded take no lock and change nothing, so abandoning one
// midway leaves nothing held. __builtin_setjmp saves only the frame, stack
// and resume address (no library call, no system call), so the hot path
// stays free of both; a function using it is never inlined, and keeps no
// value in a register across it. Use it only in small functions whose
// sole work is the call.
#define CLR_E_GUARD_FAULT ((HRESULT)0x8000FFFFu)
extern __thread void *clr_guard_buf[5] __attribute__((tls_model("initial-exec")));
extern __thread volatile int clr_guard_armed __attribute__((tls_model("initial-exec")));
#define CLR_GUARDED(hr, call)                                                  \
    do {                                                                       \
        if (__builtin_setjmp(clr_guard_buf)) {                                 \
            (hr) = CLR_E_GUARD_FAULT;                                          \
        } else {                                                               \
            clr_guard_armed = 1;                                               \
            (hr) = (call);                                                     \
            clr_guard_armed = 0;                                               \
        }                                                                      \
    } while (0)
uint64_t clr_guard_faults(void);

// IsArrayClass, guarded (values.c): the value writer and the planner ask it
// about classes read off objects.
HRESULT clr_is_array_class(ClassID cls, CorElementType *et, ClassID *ec, ULONG *rank);

// A larger alternate signal stack for the calling thread (signals.c);
// clr_alt_stack_init(0) leaves the runtime's alone.
int clr_alt_stack_init(size_t size);
void clr_thread_alt_stack(void);

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
