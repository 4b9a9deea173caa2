// golazy.h: the Go runtime, and clrotel's Go half, started when first
// needed (golazy.c).
#ifndef CLROTEL_GOLAZY_H
#define CLROTEL_GOLAZY_H

#include <stdint.h>

// Whether the build held the Go runtime's initialiser back (golazy.ld):
// then the runtime starts at clr_go_start, not when the library loads.
int clr_go_held(void);

// Starts the Go runtime if it was held back; once, from any thread. Exported
// Go functions wait for its initialisation themselves.
void clr_go_start(void);

// What Initialize needs to know without Go, read from the environment the
// way package config reads it: whether the start of Go can wait for the
// first function that may be selected. It cannot when a configuration file
// is given (CLROTEL_CONFIG), or when CLROTEL_INCLUDE holds anything but
// ASCII: Go then starts in Initialize.
typedef struct {
    int rejit;          // COR_PRF_ENABLE_REJIT: folding and its re-JIT not switched off
    int async;          // async methods as one span (clr_async_enable)
    const char *include; // CLROTEL_INCLUDE, NULL when unset
} clr_lazy_env;

// Returns 1 and fills env when Go can wait; 0 otherwise. getenv_fn is
// clr_initial_getenv in production.
int clr_go_can_wait(char *(*getenv_fn)(const char *), clr_lazy_env *env);

// The process's environment as the Go runtime reads it: the block after
// argv saved at load (a later setenv changes neither).
char *clr_initial_getenv(const char *key);

// 1 for the values package config takes as off (0, false, off, no; any
// case, surrounding white space trimmed), 0 for anything else.
int clr_env_off(const char *v);

// 1 for "true" in any case, surrounding white space trimmed (the
// OpenTelemetry specification's boolean: anything else is false).
int clr_env_true(const char *v);

#endif
