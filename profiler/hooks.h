// hooks.h: the Enter/Leave/Tailcall hooks' set-up (hooks.c); what they
// record is in capture.h.
#ifndef CLROTEL_HOOKS_H
#define CLROTEL_HOOKS_H

#include "capture.h"
#include "clrrt.h"
#include "slots.h"

// The runtime the hooks ask (exact generic types), the slot table threads
// claim their slots from, and Go's capture configuration; set up before any
// traced method runs (Go's Initialize). 0.
int clr_hooks_init(const clr_runtime *rt, clr_slot_table *slots, const clr_capture_config *cfg);

#endif
