// serving.h: the rule that tells a frame which serves independent units of
// work (a request loop, a queue consumer, Main running a service) from one
// that does a piece of work.
//
// A long-running service calls its handler from a frame that lives as long
// as the process. Traced as plain nesting, every request is a child of that
// frame: one trace that grows for the process's life, whose root is
// exported only at exit. A frame that serves instead gives each call made
// under it (and each work item it queues) a trace of its own, linked to it.
//
// The rule looks at behaviour only, never at names. A frame outside any
// unit of work serves once
//   - it is the outermost recorded frame of its thread (Main, a thread's
//     body, an async loop resumed on a pool thread) and has been open
//     after_ns (open long past any request) or has made `children` calls
//     (resumes, for an async loop), or
//   - it has queued `children` work items (Task.Run, QueueUserWorkItem, a
//     thread started), at any level.
// Only the outermost frame ages or counts its calls: below it, a frame
// open long with many calls is a long computation (a compiler's parse
// loop), whose calls are its parts, not requests.
// Frames inside a unit of work (a trace begun by the rule, by an entry
// method, by work run on the thread pool or joined to a caller's
// Activity) never serve: a slow request with many calls stays one trace.
//
// Pure arithmetic on the hot path: no clock read of its own, no memory
// touched but its arguments (profiler/internal/cserving tests it).
#ifndef CLROTEL_SERVING_H
#define CLROTEL_SERVING_H

#include <stdint.h>

typedef struct clr_serving_rule {
    uint64_t after_ns; // 0: no age rule
    uint32_t children; // 0: no count rule
} clr_serving_rule;

// Whether a frame born at born (unix ns), at level (0: outermost recorded
// frame of its thread), with calls made under it and work items queued
// under it, serves at now.
static inline int clr_serving_due(clr_serving_rule r, uint64_t born, uint32_t level, uint32_t calls, uint32_t queued,
                                  uint64_t now) {
    if (level == 0 && r.after_ns != 0 && now > born && now - born >= r.after_ns)
        return 1;
    if (r.children == 0)
        return 0;
    return queued >= r.children || (level == 0 && calls >= r.children);
}

#endif
