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
// unit of work serves (clr_serving_due) once it is the outermost recorded
// frame of its thread (Main, a thread's body, an async loop resumed on a
// pool thread) and has been open after_ns (open long past any request) or
// has made `children` calls (resumes, for an async loop). The work a frame
// queues (a work item: Task.Run, QueueUserWorkItem, a thread started; a
// closure) begins traces of its own once the frame serves, or
// (clr_serving_work_due), at any level, once the frame has been open
// after_ns or has queued `children` items: an accept loop below Main.
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

static inline int clr_serving_aged(clr_serving_rule r, uint64_t born, uint64_t now) {
    return r.after_ns != 0 && now > born && now - born >= r.after_ns;
}

// Whether a frame born at born (unix ns), at level (0: outermost recorded
// frame of its thread), that made calls, serves at now.
static inline int clr_serving_due(clr_serving_rule r, uint64_t born, uint32_t level, uint32_t calls, uint64_t now) {
    return level == 0 && (clr_serving_aged(r, born, now) || (r.children != 0 && calls >= r.children));
}

// Whether the work a frame born at born queues, queued items so far, begins
// traces of its own at now (it does too while the frame serves).
static inline int clr_serving_work_due(clr_serving_rule r, uint64_t born, uint32_t queued, uint64_t now) {
    return clr_serving_aged(r, born, now) || (r.children != 0 && queued >= r.children);
}

#endif
