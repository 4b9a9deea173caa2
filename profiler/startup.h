// startup.h: keeping ReadyToRun code where nothing is traced (startup.c).
#ifndef CLROTEL_STARTUP_H
#define CLROTEL_STARTUP_H

#include <stdint.h>

#include "clrapi.h"
#include "clrrt.h"

// The event mask every configuration asks for: Enter/Leave with the
// slow-path info (arguments, return value, frame info for exact generic
// types), JIT notifications (for JITInlining and the ENTERLEAVE windows),
// exceptions (to pop frames that unwind), module loads. Go adds ReJIT
// (folding) to it; Initialize adds threads (.NET 5+) and cached-code
// searches.
uint32_t clr_startup_base_mask(void);
uint32_t clr_startup_base_mask_high(int async);

// The runtime, and the event mask Initialize set; the ENTERLEAVE bit is
// left out of it and set only while selected methods compile.
void clr_startup_init(const clr_runtime *rt, uint32_t mask, uint32_t mask_high);

// The selection's scope, from Go (profiler/startup.go): own code only (the
// framework's assemblies hold nothing selected), or the literal prefixes of
// the include patterns, UTF-16, each ended by a 0, and whether they can
// name anything in the framework's assemblies at all (package scope).
// Returns 1, changing nothing, once clr_startup_scope_include fixed it.
int clr_startup_scope(int own_code_only, int reaches_framework, const uint16_t *prefixes, uint32_t len);
// The same scope read from CLROTEL_INCLUDE (ASCII; NULL when unset) by C,
// for a start that does not wait for Go; fixed from then on.
int clr_startup_scope_include(const char *include);

// Whether a module (a function's module) may hold a selected method; false
// only when it surely does not. Computed once per module.
int clr_module_in_scope(ModuleID mid);
void clr_module_forget(ModuleID mid);
// Module verdicts computed again for want of room in their cache.
uint64_t clr_module_verdicts_uncached(void);

// A selected method's compile begins / ends on this thread.
void clr_startup_compile_started(FunctionID fid);
void clr_startup_compile_finished(FunctionID fid);
// The mapper was asked about fid: its compile no longer needs the bit.
void clr_startup_mapped(FunctionID fid);

// How many times the ENTERLEAVE bit was turned on.
uint64_t clr_startup_windows(void);

#endif
