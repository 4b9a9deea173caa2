// gcevents.h: where collections move objects, from the runtime's own GC
// events through an in-process EventPipe session (gcevents.c).
#ifndef CLROTEL_GCEVENTS_H
#define CLROTEL_GCEVENTS_H

#include <stdint.h>

#include "clrapi.h"

// The event ids of Microsoft-Windows-DotNETRuntime that gcevents.c reads
// (ClrEtwAll.man): both come from the GC's survivor walk.
enum { GCEV_SURVIVING_RANGES = 21, GCEV_MOVED_RANGES = 22 };

// The high event-mask bit the session needs (COR_PRF_HIGH_MONITOR_EVENT_PIPE),
// or 0: only when the mask follows moved objects (work items are on) and
// the runtime has ICorProfilerInfo12 (.NET 5 and later).
uint32_t clr_gcevents_mask_high(uint32_t mask_high, uint32_t info_version);

// Remembers, from Initialize after the event mask is set, what starting
// the session needs; clr_gcevents_mask_high's bit in mask_high says
// whether it is wanted at all.
void clr_gcevents_init(void *info, ProfInfoVtbl *vt, uint32_t mask_high);

// A collection forgot a pending work item for want of reports
// (callbacks.c, at GarbageCollectionFinished): the session is started,
// once, on a thread of its own; nobody waits for it. Never from a hook.
void clr_gcevents_start_later(void);

// Starts the session on this thread (what clr_gcevents_start_later's
// thread runs). Returns 0 when a session runs, -1 otherwise (nothing
// logged: the exit log says it).
int clr_gcevents_start(void);

// ICorProfilerCallback10::EventPipeEventDelivered, given what it reads: an
// event's id and payload. Any other event is ignored.
void clr_gcevents_delivered(uint32_t event_id, uint32_t cb, const uint8_t *data);

// For the exit log: whether the session runs (1), could not start (-1) or
// was not asked for (0); range events used, and events ignored because
// their payload did not have the layout described (a runtime that changed it).
void clr_gcevents_counts(int *state, uint64_t *events, uint64_t *malformed);

#endif
