// queue.h: work queued with the caller's flow suppressed (queue.c).
#ifndef CLROTEL_QUEUE_H
#define CLROTEL_QUEUE_H

#include <stdint.h>

#include "async.h"
#include "capture.h"

// CoreLib's methods that queue work with a callback, by type (async.c
// registers every overload of each at CoreLib's load).
typedef struct clr_queue_api {
    const char *type;
    const char *const *methods;
    int nmethods;
} clr_queue_api;
extern const clr_queue_api clr_queue_apis[]; // ends with a NULL type

struct clr_runtime;
// The runtime asked for the queuing methods' arguments (Initialize).
void clr_queue_init(const struct clr_runtime *rt);
// Set by Go once: Delegate._target's offset in every delegate object.
void clr_queue_set_target_offset(uint32_t off);
// Go, when it learns a closure class's layout (async.go): the offsets of
// the fields async.c gave it. Returns -1 when the table is full.
int clr_closure_class_add(uintptr_t cls, const uint16_t off[CLOSURE_FIELDS]);

// The Enter hook of an FN_QUEUE method (no span): when the caller's flow is
// suppressed, the closures its callbacks belong to are marked so that
// their work starts a trace of its own, linked to where they were made.
void clr_queue_point(clr_fn *fn, uintptr_t elt);
uint64_t clr_queue_suppressed(void);

// A closure's check word (the made time folded in): flowed, or queued with
// the flow suppressed.
#define QUEUE_SUPPRESSED_SALT 0x7375707072657373ull
static inline uint64_t clr_closure_check(uint64_t t0, uint64_t t1, uint64_t span, uint64_t made, int suppressed) {
    return clr_async_check(t0, t1, span ^ made ^ (suppressed ? QUEUE_SUPPRESSED_SALT : 0));
}

#endif
