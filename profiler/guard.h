// guard.h: guarded profiling-API calls (guard.c). Some calls take what they
// are given from the object graph: a type pointer read from an object, a
// class that object names. A reference forged by unsafe code to point at
// readable memory that holds no object makes the runtime follow a garbage
// type pointer and fault inside the call. CLR_GUARDED(hr, call) runs the
// call with this thread's guard armed: a SIGSEGV/SIGBUS inside it resumes
// right after it, with hr = CLR_E_GUARD_FAULT, instead of ending the
// process (the fault handler, signals.c, sends it back). The calls guarded
// take no lock and change nothing, so abandoning one midway leaves nothing
// held. __builtin_setjmp saves only the frame, stack and resume address (no
// library call, no system call), so the hot path stays free of both; a
// function using it is never inlined, and keeps no value in a register
// across it. Use it only in small functions whose sole work is the call:
// those below, which take the runtime they ask.
//
// A leaf: the readers and the fault handler depend on it.
#ifndef CLROTEL_GUARD_H
#define CLROTEL_GUARD_H

#include <stdint.h>

#include "clrapi.h"
#include "clrrt.h"

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

// For the fault handler: a fault met with this thread's guard armed. It is
// disarmed and counted; the thread is to resume in clr_guard_resume, which
// jumps back to CLR_GUARDED's receiver.
void clr_guard_faulted(void);
void clr_guard_resume(void);

// The runtime's calls on classes and objects read off the heap, guarded.
HRESULT clr_guarded_class_from_object(const clr_runtime *rt, ObjectID obj, ClassID *cls);
HRESULT clr_guarded_array_object_info(const clr_runtime *rt, ObjectID obj, ULONG32 rank, ULONG32 *dims, int *lbounds,
                                      BYTE **data);
HRESULT clr_guarded_is_array_class(const clr_runtime *rt, ClassID cls, CorElementType *et, ClassID *ec, ULONG *rank);
HRESULT clr_guarded_class_id_info(const clr_runtime *rt, ClassID cls, ModuleID *mod, mdTypeDef *td);
HRESULT clr_guarded_class_id_info2(const clr_runtime *rt, ClassID cls, ModuleID *mod, mdTypeDef *td, ClassID *parent,
                                   ULONG32 cap, ULONG32 *n, ClassID *args);
HRESULT clr_guarded_class_layout(const clr_runtime *rt, ClassID cls, COR_FIELD_OFFSET *fields, ULONG cap, ULONG *n,
                                 ULONG *size);
HRESULT clr_guarded_box_class_layout(const clr_runtime *rt, ClassID cls, ULONG32 *offset);

#endif
