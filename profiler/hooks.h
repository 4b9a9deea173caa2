// hooks.h: the Enter/Leave/Tailcall hooks' set-up (hooks.c); what they
// record is in capture.h.
#ifndef CLROTEL_HOOKS_H
#define CLROTEL_HOOKS_H

#include "capture.h"
#include "clrrt.h"

// The runtime the hooks ask (exact generic types) and Go's capture
// configuration; set up before any traced method runs (Go's Initialize).
// 0, or -1 when the configuration is refused or the slots cannot be had.
int clr_hooks_init(const clr_runtime *rt, const clr_capture_config *cfg);

#endif
