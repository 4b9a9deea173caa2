// async.h: async methods as one span each (async.c explains the design).
#ifndef CLROTEL_ASYNC_H
#define CLROTEL_ASYNC_H

#include <stdint.h>

// The fields given to each state machine: trace id (two words), the async
// span's id, and a check word that tells the profiler's writing from zeros
// (not yet written) or from anything else. An async state machine has two
// more, for the serving rule (serving.h): when its async method was called
// (unix ns), and its resumes with the marks below. An iterator's has the
// first five, the fifth saying whether the fold rule judges the steps of
// its enumeration (hooks.c iter_judges). The hooks see the four and where
// the fifth is (ASYNC_WORDS).
enum { ASYNC_FIELDS = 4, ASYNC_FIELD_BORN = 4, ASYNC_FIELD_RESUMES = 5, ASYNC_LOOP_FIELDS = 6 };
enum { ASYNC_ITER_FIELDS = 5, ASYNC_WORDS = ASYNC_FIELDS + 1 };
#define ASYNC_RESUMES_UNIT (1ull << 63)    // the async method is in a unit of work's trace: never serving
#define ASYNC_RESUMES_SERVING (1ull << 62) // it serves: calls under its resumes begin traces of their own
#define ASYNC_RESUMES_COUNT 0xffffffffull
// A closure class's fields: the same four, then when the closure was made
// (unix ns): its lambdas join the maker's trace only within LINK_WINDOW_NS
// of that (a timer's ticks an hour later start traces of their own).
enum { CLOSURE_FIELDS = 5 };
#define LINK_WINDOW_NS (60ull * 1000000000ull)
// The closure's made field, top bit: made in a unit of work's trace (its
// lambdas' work stays in it however late it runs). Unix ns leave it clear.
#define CLOSURE_MADE_UNIT (1ull << 63)

struct clr_runtime;
// The runtime the module-load work and the readers of `this` ask
// (Initialize).
void clr_async_init(const struct clr_runtime *rt);
// On by Go before the first module loads (CLROTEL_ASYNC).
void clr_async_enable(int on);
// ModuleLoadFinished, before anything else reads the module's metadata.
void clr_async_module_loading(uintptr_t mid);
// The kinds of types given fields: async state machines, closure classes,
// iterators' state machines (compiler-generated enumerators).
enum { ASYNC_KIND_STATE_MACHINE = 0, ASYNC_KIND_CLOSURE = 1, ASYNC_KIND_ITERATOR = 2 };
// How many fields a type of that kind is given.
static inline int clr_async_field_count(int kind) {
    return kind == ASYNC_KIND_CLOSURE ? CLOSURE_FIELDS : kind == ASYNC_KIND_STATE_MACHINE ? ASYNC_LOOP_FIELDS : ASYNC_ITER_FIELDS;
}
// Which of the fields (0..count-1) of a type of that kind a field name is,
// or -1.
int clr_async_field_index(const uint16_t *name, uint32_t len, int kind);
uint64_t clr_async_types(void);
uint64_t clr_closure_types(void);
uint64_t clr_async_skipped_modules(void);

// What the MethodDef tok of module mid is, as found at module load: a task
// builder's SetResult or SetException, a CoreLib method that queues work
// (queue.c), or neither (0).
// ASYNC_SPECIAL_WORK_*: a work item's maker and run (workitems.c).
// ASYNC_SPECIAL_WORK_MAKE_REPEAT: the maker of an item that may run more
// than once (a timer's); ASYNC_SPECIAL_WORK_MAKE_PROMISE: one whose item
// never runs when made without a delegate (Task's: workitems.h,
// promise-style tasks).
enum { ASYNC_SPECIAL_BUILDER = 1, ASYNC_SPECIAL_QUEUE = 2, ASYNC_SPECIAL_WORK_MAKE = 3, ASYNC_SPECIAL_WORK_RUN = 4,
       ASYNC_SPECIAL_WORK_REPEAT = 5, ASYNC_SPECIAL_COMPILE = 6, ASYNC_SPECIAL_WORK_MAKE_REPEAT = 7,
       ASYNC_SPECIAL_WORK_MAKE_PROMISE = 8 };
int clr_async_special_method(uintptr_t mid, uint32_t tok);
// A custom attribute's blob (the runtime's memory, valid while the module is).
int md_attribute_blob(void *imp, uint32_t tok, const uint16_t *name, const uint8_t **data, uint32_t *len);


// The check word for an identity, and the mark of a state machine whose
// kickoff call was not recorded (its resumes are not either), or was
// folded (ASYNC_FOLDED: its steps are transparent frames, their calls
// decided under whatever calls the step).
static inline uint64_t clr_async_check(uint64_t t0, uint64_t t1, uint64_t span) {
    uint64_t x = t0 ^ (t1 * 0x9e3779b97f4a7c15ull) ^ (span * 0xc2b2ae3d27d4eb4full) ^ 0x636c726f74656c31ull;
    return x == 0 ? 1 : x;
}
#define ASYNC_UNTRACED 0x756e74726163656dull
#define ASYNC_DROPPED 0x64726f7070656421ull
#define ASYNC_FOLDED 0x666f6c6465642121ull
// A closure made by a serving frame whose own trace is not exported (shed
// or unsampled): its lambdas' work begins traces of their own, unlinked.
#define ASYNC_SERVED 0x7365727665642121ull

#endif
