// startup.c: keeping the runtime's ReadyToRun code wherever nothing is traced.
//
// Why this file exists (runtime source, .NET Core 3.1 and .NET 8 alike):
//  - COR_PRF_MONITOR_ENTERLEAVE is part of COR_PRF_REQUIRE_PROFILE_IMAGE, and
//    ReadyToRunInfo::Initialize refuses a module's ReadyToRun code when
//    CORProfilerUseProfileImages() holds at the moment that module
//    initialises (Module::DoInit -> Initialize). Asked for in Initialize, it
//    makes every module, CoreLib first, JIT-compile everything.
//  - The JIT inserts the Enter/Leave calls only into code it compiles while
//    the bit is set (CORJIT_FLAG_PROF_ENTERLEAVE), and the runtime's
//    slow-path helper (ProfileEnter/Leave) calls the hooks without looking
//    at the bit again. The bit is not in COR_PRF_MONITOR_IMMUTABLE, so
//    SetEventMask may add and remove it after Initialize.
//  - The slow-path flags (arguments, return value, frame info) are
//    immutable after Initialize, and SetEnterLeaveFunctionHooks3WithInfo
//    needs only them, so the hooks are registered in Initialize.
//
// So the bit is set only while a selected method is being JIT-compiled,
// from its JITCompilationStarted to its JITCompilationFinished (the compile
// flags are read in between, on that thread). A module that initialises in
// such a window loses its ReadyToRun code; nothing else does. A selected
// method that has ReadyToRun code is refused it in
// JITCachedFunctionSearchStarted (COR_PRF_MONITOR_CACHE_SEARCHES, asked by
// ReadyToRunInfo::GetEntryPoint before any code is used), so it is
// JIT-compiled, with its hooks, at its first call.
//
// Every question about a function first asks whether its module can hold a
// selected method at all (a conservative, per-module answer computed once
// from the selection's literal prefixes), so that framework code costs no
// call into Go.
#include <stdatomic.h>
#include <string.h>

#include "clrapi.h"
#include "clrinfo.h"
#include "framework.h"
#include "lftable.h"
#include "profiler.h"
#include "startup.h"

static clr_runtime g_rt;

static uint32_t g_mask, g_mask_high; // the event mask without ENTERLEAVE
static pthread_mutex_t g_mask_mu = PTHREAD_MUTEX_INITIALIZER;
static int g_compiling;              // selected methods being compiled (under g_mask_mu)
static _Atomic uint64_t g_windows;   // times ENTERLEAVE was turned on

// The selection's scope, set once by Go before any callback can ask.
static int g_own_code_only, g_everywhere, g_reaches_framework;
#define MAX_PREFIXES 64
static uint16_t g_prefix_buf[4096];
static uint16_t g_prefix_off[MAX_PREFIXES], g_prefix_len[MAX_PREFIXES];
static uint32_t g_nprefixes;

uint32_t clr_startup_base_mask(void) {
    return COR_PRF_MONITOR_ENTERLEAVE | COR_PRF_ENABLE_FUNCTION_ARGS | COR_PRF_ENABLE_FUNCTION_RETVAL |
           COR_PRF_ENABLE_FRAME_INFO | COR_PRF_MONITOR_JIT_COMPILATION | COR_PRF_MONITOR_EXCEPTIONS |
           COR_PRF_MONITOR_MODULE_LOADS;
}

// GC start and end (concurrent GC kept): a GC may move the storage of a
// thread's t_currentThread (ambient.c). With async handling, also where
// compacting collections move objects, reported without COR_PRF_MONITOR_GC:
// the work items workitems.c knows by address.
uint32_t clr_startup_base_mask_high(int async) {
    return COR_PRF_HIGH_BASIC_GC | (async ? COR_PRF_HIGH_MONITOR_GC_MOVED_OBJECTS : 0);
}

void clr_startup_init(const clr_runtime *rt, uint32_t mask, uint32_t mask_high) {
    g_rt = *rt;
    g_mask = mask & ~(uint32_t)COR_PRF_MONITOR_ENTERLEAVE;
    g_mask_high = mask_high;
}

uint64_t clr_startup_windows(void) { return atomic_load(&g_windows); }

// Set once the scope was given before Go started (clr_startup_scope_include):
// then it is never rewritten, as callbacks may be reading it.
static _Atomic int g_scope_fixed;

int clr_startup_scope(int own_code_only, int reaches_framework, const uint16_t *prefixes, uint32_t len) {
    if (atomic_load(&g_scope_fixed))
        return 1;
    g_own_code_only = own_code_only;
    g_reaches_framework = reaches_framework;
    g_nprefixes = 0;
    g_everywhere = 0;
    if (own_code_only)
        return 0;
    if (len > sizeof g_prefix_buf / sizeof *g_prefix_buf) {
        g_everywhere = 1;
        return 0;
    }
    memcpy(g_prefix_buf, prefixes, len * sizeof *prefixes);
    // NUL-separated; an empty prefix (a pattern starting with a wildcard)
    // can match in any module.
    for (uint32_t i = 0, start = 0; i < len; i++) {
        if (g_prefix_buf[i] != 0)
            continue;
        if (i == start || g_nprefixes == MAX_PREFIXES) {
            g_everywhere = 1;
            return 0;
        }
        g_prefix_off[g_nprefixes] = (uint16_t)start;
        g_prefix_len[g_nprefixes] = (uint16_t)(i - start);
        g_nprefixes++;
        start = i + 1;
    }
    return 0;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

// The scope from CLROTEL_INCLUDE itself (ASCII), for a start before Go:
// what config.SplitPatterns, scope.Prefixes and scope.ReachesFramework give
// (covered prefixes are kept: they widen nothing). NULL: the defaults, own
// code only. The scope is then fixed: Go's configureScope leaves it.
int clr_startup_scope_include(const char *include) {
    uint16_t buf[sizeof g_prefix_buf / sizeof *g_prefix_buf];
    uint32_t len = 0, npat = 0;
    int reaches = 0, everywhere = 0, overflow = 0;
    for (const char *p = include; p != NULL && !everywhere;) {
        const char *end = strchr(p, ',');
        if (end == NULL)
            end = p + strlen(p);
        const char *a = p, *b = end;
        while (a < b && is_space(*a))
            a++;
        while (b > a && is_space(b[-1]))
            b--;
        p = *end == ',' ? end + 1 : NULL;
        if (a == b)
            continue; // an empty pattern is no pattern
        npat++;
        const char *lit_end = a;
        while (lit_end < b && *lit_end != '*' && *lit_end != '?')
            lit_end++;
        size_t n = (size_t)(lit_end - a);
        if (n == 0) {
            everywhere = 1;
            break;
        }
        if (clr_framework_reached(a, n))
            reaches = 1;
        if (len + n + 1 > sizeof buf / sizeof *buf) {
            overflow = 1;
            continue;
        }
        for (size_t i = 0; i < n; i++)
            buf[len++] = (uint16_t)(unsigned char)a[i];
        buf[len++] = 0;
    }
    int rc;
    if (npat == 0)
        rc = clr_startup_scope(1, 0, NULL, 0);
    else if (everywhere || overflow) // one empty prefix: every module
        rc = clr_startup_scope(0, 1, (const uint16_t[]){0}, 1);
    else
        rc = clr_startup_scope(0, reaches, buf, len);
    atomic_store(&g_scope_fixed, 1);
    return rc;
}

// ---- per-module scope ----------------------------------------------------

enum { MOD_UNKNOWN = 0, MOD_OUT = 1, MOD_MAYBE = 2 };
// Each module's verdict, computed once (a module forgotten at unload is
// asked again under its ID). A full table only means verdicts computed
// again (counted).
#define MODS 2048 // power of two
static lft_slot g_mod_slots[MODS];
static _Atomic uint64_t g_mods_full;
static lftable g_mods = {g_mod_slots, MODS - 1, 64, &g_mods_full};

uint64_t clr_module_verdicts_uncached(void) { return atomic_load_explicit(&g_mods_full, memory_order_relaxed); }

static int ascii_eq(const uint16_t *s, uint32_t n, const char *lit) {
    size_t l = strlen(lit);
    if (n != l)
        return 0;
    for (size_t i = 0; i < l; i++)
        if (s[i] != (uint16_t)lit[i])
            return 0;
    return 1;
}

static int ascii_prefix(const uint16_t *s, uint32_t n, const char *lit) {
    size_t l = strlen(lit);
    if (n < l)
        return 0;
    for (size_t i = 0; i < l; i++)
        if (s[i] != (uint16_t)lit[i])
            return 0;
    return 1;
}

static int activity_assembly(const uint16_t *s, uint32_t n) {
    while (n > 0 && s[n - 1] == 0)
        n--;
    return ascii_eq(s, n, "System.Diagnostics.DiagnosticSource");
}

// Whether "<name>." and some prefix agree on their common length: then a
// method of that type (or of a type nested in it) can have a name the
// prefix starts, or the prefix names a namespace the type is in.
static int prefix_compatible(const uint16_t *name, uint32_t n) {
    for (uint32_t p = 0; p < g_nprefixes; p++) {
        const uint16_t *pre = g_prefix_buf + g_prefix_off[p];
        uint32_t pl = g_prefix_len[p], m = n + 1 < pl ? n + 1 : pl, i = 0;
        for (; i < m; i++) {
            uint16_t c = i < n ? name[i] : '.';
            if (c != pre[i])
                break;
        }
        if (i == m)
            return 1;
    }
    return 0;
}

// Names the way naming does: arity suffix dropped ("List`1" -> "List"),
// and System's primitives by their short name ("Int32"), so both forms are
// tried for types of the System namespace.
static int type_may_match(uint16_t *name, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (name[i] == '`') {
            n = i;
            break;
        }
    if (prefix_compatible(name, n))
        return 1;
    if (ascii_prefix(name, n, "System.")) {
        uint32_t dots = 0;
        for (uint32_t i = 0; i < n; i++)
            dots += name[i] == '.';
        if (dots == 1 && prefix_compatible(name + 7, n - 7))
            return 1;
    }
    return 0;
}

static int module_compute(ModuleID mid) {
    if (g_everywhere)
        return MOD_MAYBE;
    uint16_t path[1024], asm_name[512];
    uint32_t plen = 0, alen = 0;
    int framework = clr_module_info(mid, path, 1024, &plen, asm_name, 512, &alen) == 0 && alen > 0 &&
                    clr_framework_assembly(asm_name, alen);
    // Activity.Stop is hooked whatever the selection (ambient.c): its
    // assembly's methods are asked about (profiler/ambient.go activityStop).
    if (framework && activity_assembly(asm_name, alen))
        return MOD_MAYBE;
    if (g_own_code_only || (framework && !g_reaches_framework))
        return framework ? MOD_OUT : MOD_MAYBE;
    void *imp = clr_module_import(mid);
    if (imp == NULL)
        return MOD_MAYBE;
    MDImportVtbl *md = *(MDImportVtbl **)imp;
    int verdict = MOD_OUT;
    HCORENUM e = NULL;
    mdTypeDef tds[256];
    ULONG got = 0;
    while (verdict == MOD_OUT && md->EnumTypeDefs(imp, &e, tds, 256, &got) == S_OK && got > 0) {
        for (ULONG i = 0; i < got; i++) {
            uint16_t name[1024];
            ULONG n = 0;
            DWORD flags = 0;
            mdToken ext = 0;
            if (md->GetTypeDefProps(imp, tds[i], (WCHAR *)name, 1024, &n, &flags, &ext) < 0 || n == 0 || n > 1024) {
                verdict = MOD_MAYBE;
                break;
            }
            // Nested types are covered by the type that encloses them.
            if ((flags & 0x7) >= 2) // tdNestedPublic ... tdNestedFamORAssem
                continue;
            if (type_may_match(name, n - 1)) {
                verdict = MOD_MAYBE;
                break;
            }
        }
    }
    if (e != NULL)
        md->CloseEnum(imp, e);
    md->Release(imp);
    // <Module>'s global methods are named "<Module>.M".
    if (verdict == MOD_OUT && prefix_compatible((const uint16_t[]){'<', 'M', 'o', 'd', 'u', 'l', 'e', '>'}, 8))
        verdict = MOD_MAYBE;
    return verdict;
}

int clr_module_in_scope(ModuleID mid) {
    if (mid == 0)
        return 1;
    int64_t k = lft_find(&g_mods, mid);
    if (k >= 0) {
        uintptr_t v = lft_val(&g_mods, k);
        if (v != MOD_UNKNOWN)
            return v == MOD_MAYBE;
        return module_compute(mid) == MOD_MAYBE; // another thread is computing it: compute too
    }
    // Claimed before it is computed: a removal meanwhile (the module
    // unloaded) leaves this verdict in a removed slot, not under a reused ID.
    k = lft_claim(&g_mods, mid, NULL);
    int v = module_compute(mid);
    if (k >= 0)
        lft_set(&g_mods, k, (uintptr_t)v);
    return v == MOD_MAYBE;
}

// An unloaded module's ID may be reused for another module.
void clr_module_forget(ModuleID mid) { lft_remove(&g_mods, mid); }

// ---- the ENTERLEAVE windows ----------------------------------------------

#define JIT_NEST 32
// This thread's compiles that opened a window, innermost last; open is
// cleared once the window is closed early (clr_startup_mapped).
static __thread struct {
    FunctionID fid;
    int open;
} t_windows[JIT_NEST] __attribute__((tls_model("initial-exec")));
static __thread uint32_t t_nwindows __attribute__((tls_model("initial-exec")));

static void set_mask(int enterleave) {
    ProfInfoVtbl *v = g_rt.vtbl;
    uint32_t m = g_mask | (enterleave ? (uint32_t)COR_PRF_MONITOR_ENTERLEAVE : 0);
    if (v->SetEventMask2 != NULL && g_rt.version >= 5)
        v->SetEventMask2(g_rt.info, m, g_mask_high);
    else
        v->SetEventMask(g_rt.info, m);
}

static void close_window(void) {
    pthread_mutex_lock(&g_mask_mu);
    if (--g_compiling == 0)
        set_mask(0);
    pthread_mutex_unlock(&g_mask_mu);
}

void clr_startup_compile_started(FunctionID fid) {
    if (t_nwindows >= JIT_NEST)
        return; // cannot pair it with its end: leave the bit as it is
    pthread_mutex_lock(&g_mask_mu);
    if (g_compiling++ == 0) {
        set_mask(1);
        atomic_fetch_add(&g_windows, 1);
    }
    pthread_mutex_unlock(&g_mask_mu);
    t_windows[t_nwindows].fid = fid;
    t_windows[t_nwindows].open = 1;
    t_nwindows++;
}

// The JIT read its flags (CORJIT_FLAG_PROF_ENTERLEAVE) when the compile
// began, and asks the FunctionIDMapper about the method it compiles before
// it imports the IL (getProfilingHandle, from compInitOptions): from then
// on the bit no longer matters to this compile. Closing the window there
// keeps it shut while the import loads the assemblies the method uses, so
// that they keep their ReadyToRun code.
void clr_startup_mapped(FunctionID fid) {
    if (t_nwindows == 0 || t_windows[t_nwindows - 1].fid != fid || !t_windows[t_nwindows - 1].open)
        return;
    t_windows[t_nwindows - 1].open = 0;
    close_window();
}

void clr_startup_compile_finished(FunctionID fid) {
    // Only a compile this thread opened a window for closes one. Compiles
    // nest (one may run a class constructor that compiles); one that never
    // finished (it failed) is closed with the compile around it.
    uint32_t k = t_nwindows;
    while (k > 0 && t_windows[k - 1].fid != fid)
        k--;
    if (k == 0)
        return;
    while (t_nwindows > k - 1) { // fid's entry (k - 1) and those above it
        t_nwindows--;
        if (t_windows[t_nwindows].open)
            close_window();
    }
}
