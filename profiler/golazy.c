// golazy.c: the Go runtime starts when clrotel first needs Go.
//
// A -buildmode=c-shared library starts the Go runtime from an .init_array
// entry (_rt0_amd64_linux_lib): when the runtime loads the profiler, every
// process pays for Go's start, its ~190 packages' initialisation and the
// pages they touch, before anything is known to be traced (about 5 ms of
// CPU on a 30 ms hello world, measured against the same library with the
// entry held back). `make build` links with golazy.ld, which moves that one
// entry out of .init_array into .clrotel_goinit, where the dynamic loader
// still relocates it but does not call it; clr_go_start calls it, with the
// process's arguments saved at load, the first time Go is needed. A build
// without the script (go build alone) starts Go at load, as any c-shared
// library does, and
// clr_go_start does nothing.
//
// The entry itself runs runtime·libpreinit on the calling thread (Go's
// signal handlers, which signals.c wraps as soon as it returns: a fault on
// another thread in those microseconds meets Go's handler unwrapped, as it
// would have at load had managed code been running) and starts the
// runtime's own thread; the exported Go
// functions wait for the runtime's initialisation (crosscall2) as they did
// when it began at load. Go reads its arguments and environment from the
// saved argv (the process's initial stack), the same it read at load.
#include <ctype.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "golazy.h"

typedef void (*init_fn)(int, char **, char **);

// Defined by golazy.ld around the held entry; absent (weak: NULL) without it.
extern const init_fn clr_goinit_begin[] __attribute__((weak, visibility("hidden")));
extern const init_fn clr_goinit_end[] __attribute__((weak, visibility("hidden")));

static int g_argc;
static char **g_argv, **g_envp;

// glibc calls an ELF constructor with the process's argc, argv and envp.
__attribute__((constructor)) static void save_args(int argc, char **argv, char **envp) {
    g_argc = argc;
    g_argv = argv;
    g_envp = envp;
}

char *clr_initial_getenv(const char *key) {
    if (g_argv == NULL)
        return getenv(key);
    size_t n = strlen(key);
    // The block after argv's NULL, as the Go runtime reads it (goenvs).
    for (char **e = g_argv + g_argc + 1; *e != NULL; e++)
        if (strncmp(*e, key, n) == 0 && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

int clr_go_held(void) {
    const init_fn *b = clr_goinit_begin, *e = clr_goinit_end;
    return b != NULL && b < e;
}

static pthread_once_t g_go_once = PTHREAD_ONCE_INIT;

static void go_start_once(void) {
    for (const init_fn *f = clr_goinit_begin; f < clr_goinit_end; f++)
        (*f)(g_argc, g_argv, g_envp);
}

void clr_go_start(void) {
    if (clr_go_held())
        pthread_once(&g_go_once, go_start_once);
}

static int ascii(const char *s) {
    for (; s != NULL && *s != 0; s++)
        if ((unsigned char)*s >= 0x80)
            return 0;
    return 1;
}

// Whether v, trimmed, is one of words (lower case), in any case.
static int env_word(const char *v, const char *const *words, size_t nwords) {
    if (v == NULL)
        return 0;
    while (isspace((unsigned char)*v))
        v++;
    size_t n = strlen(v);
    while (n > 0 && isspace((unsigned char)v[n - 1]))
        n--;
    for (size_t i = 0; i < nwords; i++) {
        if (strlen(words[i]) != n)
            continue;
        size_t k = 0;
        while (k < n && tolower((unsigned char)v[k]) == words[i][k])
            k++;
        if (k == n)
            return 1;
    }
    return 0;
}

int clr_env_off(const char *v) {
    static const char *const offs[] = {"0", "false", "off", "no"};
    return env_word(v, offs, sizeof offs / sizeof *offs);
}

int clr_env_true(const char *v) {
    static const char *const yes[] = {"true"};
    return env_word(v, yes, 1);
}

int clr_go_can_wait(char *(*getenv_fn)(const char *), clr_lazy_env *env) {
    const char *file = getenv_fn("CLROTEL_CONFIG");
    if (file != NULL) {
        // Blank is no file (config.Load trims it).
        for (const char *s = file; *s != 0; s++)
            if (!isspace((unsigned char)*s))
                return 0;
        if (!ascii(file))
            return 0;
    }
    const char *fold = getenv_fn("CLROTEL_FOLD"), *rejit = getenv_fn("CLROTEL_FOLD_REJIT"),
               *async = getenv_fn("CLROTEL_ASYNC"), *include = getenv_fn("CLROTEL_INCLUDE");
    // Non-ASCII white space is trimmed by Go and not here: leave such
    // values to Go.
    if (!ascii(fold) || !ascii(rejit) || !ascii(async) || !ascii(include))
        return 0;
    // Each is on by default, and stays on for a value config rejects.
    env->rejit = !clr_env_off(fold) && !clr_env_off(rejit);
    env->async = !clr_env_off(async);
    env->include = include;
    return 1;
}
