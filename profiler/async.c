// async.c: what lets an async method be one span from its call until its
// task completes, with every resume of it (on any thread) nested under that
// span.
//
// The span's identity travels inside the method's state machine. When a
// module loads, each of its types implementing IAsyncStateMachine gets six
// private Int64 fields (ASYNC_LOOP_FIELDS) through IMetaDataEmit::DefineField,
// before any of the module's types is loaded. The first MoveNext, called
// from the kickoff method, writes the kickoff span's trace id and span id
// there (with a check word); the compiler copies the struct into the task's
// box at the first await, so every later MoveNext finds the same identity
// through `this`, wherever the garbage collector moved the box. Nothing is
// keyed by address, and no table has to follow the GC.
//
// Why the fields are safe: managed code never reads or writes them (their
// names are not valid C# identifiers, and the compiler's code refers to its
// own fields by token); the struct grows by 48 bytes. ReadyToRun code bakes
// type layouts in, so modules with native code (COR_PRF_MODULE_NGEN: every
// framework module, and apps published ReadyToRun) are left alone: their
// async methods are traced as plain methods, each MoveNext a span of its
// own. A type with explicit layout is left alone too (a new field there
// would need an offset).
//
// The hooks (hooks.c) read and write the fields on CLR threads with the
// rules of the hot path; this file's module-load part runs once per module
// on the loading thread and may use the metadata API freely.
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "async.h"
#include "clrinfo.h"
#include "framework.h"
#include "imagemd.h"
#include "profiler.h"
#include "queue.h"
#include "values.h"
#include "workitems.h"

#define INFO (g_rt.vtbl)
#define SELF (g_rt.info)
#define MD(imp) (*(MDImportVtbl **)(imp))

static clr_runtime g_rt;
void clr_async_init(const clr_runtime *rt) { g_rt = *rt; }

static const GUID IID_IMetaDataEmit = {0xba3fee4c, 0xecb9, 0x4e41, {0x83, 0xb7, 0x18, 0x3f, 0xa4, 0x1c, 0xd8, 0x59}};

// IMetaDataEmit up to DefineField (the 37th method after IUnknown's three,
// in cor.h's order).
typedef struct MDEmitVtbl {
    HRESULT (*QueryInterface)(void *self, REFIID riid, void **ppv);
    ULONG (*AddRef)(void *self);
    ULONG (*Release)(void *self);
    void *before_define_field[36];
    HRESULT (*DefineField)(void *self, mdTypeDef td, const WCHAR *name, DWORD flags, PCCOR_SIGNATURE sig, ULONG sig_len,
                           DWORD cplus_type, const void *value, ULONG value_len, mdFieldDef *out);
} MDEmitVtbl;

static int g_async_on;

static int wprefix(const WCHAR *s, const char *p) {
    for (; *p != 0; s++, p++)
        if (*s != (WCHAR)(unsigned char)*p)
            return 0;
    return 1;
}
static _Atomic uint64_t g_async_types;   // state machine types given the fields
static _Atomic uint64_t g_async_modules; // modules skipped: native code in them

void clr_async_enable(int on) { g_async_on = on; }
static void ascii16(uint16_t *out, const char *s);
static _Atomic uint64_t g_closure_types; // closure classes given the fields
uint64_t clr_closure_types(void) { return atomic_load_explicit(&g_closure_types, memory_order_relaxed); }

static const char k_compiler_generated[] = "System.Runtime.CompilerServices.CompilerGeneratedAttribute";

// Whether a type is a closure class: a nested class the compiler generated
// (CompilerGeneratedAttribute), deriving from Object, that is not a
// singleton (a static field of its own type: the cache of non-capturing
// lambdas, one object shared by every call). Each capturing scope's run
// makes one of these: what its lambdas do later, on any thread, was made
// there (hooks.c links it).
static int is_closure(void *imp, mdTypeDef td, DWORD flags, mdToken ext) {
    if ((flags & 0x7) < 2 || (flags & 0x20) != 0 || (ext >> 24) != 0x01) // nested, class, base a TypeRef
        return 0;
    WCHAR name[16];
    ULONG n = 0;
    mdToken scope = 0;
    static const char object[] = "System.Object";
    if (MD(imp)->GetTypeRefProps(imp, ext, &scope, name, 16, &n) != S_OK || n != sizeof object)
        return 0;
    for (size_t i = 0; i < sizeof object - 1; i++)
        if (name[i] != (WCHAR)object[i])
            return 0;
    uint16_t attr[sizeof k_compiler_generated];
    ascii16(attr, k_compiler_generated);
    const void *data = NULL;
    ULONG len = 0;
    if (MD(imp)->GetCustomAttributeByName(imp, td, (const WCHAR *)attr, &data, &len) != S_OK)
        return 0;
    HCORENUM e = NULL;
    mdFieldDef fds[32];
    ULONG got = 0;
    int singleton = 0;
    while (!singleton && MD(imp)->EnumFields(imp, &e, td, fds, 32, &got) == S_OK && got > 0) {
        for (ULONG i = 0; i < got && !singleton; i++) {
            mdTypeDef owner = 0;
            DWORD fa = 0, cplus = 0;
            PCCOR_SIGNATURE sig = NULL;
            ULONG sl = 0, nl = 0, vl = 0;
            UVCP_CONSTANT v = NULL;
            if (MD(imp)->GetFieldProps(imp, fds[i], &owner, NULL, 0, &nl, &fa, &sig, &sl, &cplus, &v, &vl) != S_OK)
                continue;
            // static, FIELD CLASS <TypeDefOrRef coded index of td>
            if ((fa & 0x10) && sl >= 3 && sig[0] == 0x06 && sig[1] == 0x12) {
                uint32_t coded = sig[2];
                if ((sig[2] & 0xC0) == 0x80 && sl >= 4)
                    coded = ((uint32_t)(sig[2] & 0x3F) << 8) | sig[3];
                else if ((sig[2] & 0xE0) == 0xC0 && sl >= 6)
                    coded = ((uint32_t)(sig[2] & 0x1F) << 24) | ((uint32_t)sig[3] << 16) | ((uint32_t)sig[4] << 8) | sig[5];
                singleton = (coded & 3) == 0 && (0x02000000u | (coded >> 2)) == td;
            }
        }
    }
    if (e != NULL)
        MD(imp)->CloseEnum(imp, e);
    return !singleton;
}

uint64_t clr_async_types(void) { return atomic_load_explicit(&g_async_types, memory_order_relaxed); }
uint64_t clr_async_skipped_modules(void) { return atomic_load_explicit(&g_async_modules, memory_order_relaxed); }

// "<clrotel>flow0" .. "<clrotel>flow3" (state machines), "<clrotel>link0"
// .. (closures) or "<clrotel>iter0" .. (iterators) as UTF-16.
static void field_name(uint16_t *out, int i, int kind) {
    const char *base = kind == ASYNC_KIND_CLOSURE ? "<clrotel>link" : kind == ASYNC_KIND_ITERATOR ? "<clrotel>iter" : "<clrotel>flow";
    size_t n = strlen(base);
    for (size_t k = 0; k < n; k++)
        out[k] = (uint16_t)base[k];
    out[n] = (uint16_t)('0' + i);
    out[n + 1] = 0;
}

int clr_async_field_index(const uint16_t *name, uint32_t len, int kind) {
    uint16_t want[16];
    for (int i = 0; i < clr_async_field_count(kind); i++) {
        field_name(want, i, kind);
        uint32_t n = 0;
        while (want[n] != 0)
            n++;
        if (len == n && memcmp(name, want, 2 * (size_t)n) == 0)
            return i;
    }
    return -1;
}

// The part of a full type name after its namespace.
static const char *simple_name(const char *full) {
    const char *dot = strrchr(full, '.');
    return dot != NULL ? dot + 1 : full;
}

static const char k_iface[] = "System.Runtime.CompilerServices.IAsyncStateMachine";
static const char k_enumerator[] = "System.Collections.IEnumerator";

// Whether the TypeRef (or TypeDef, inside CoreLib) tok names the interface
// iface.
static int is_iface(void *imp, mdToken tok, const char *iface) {
    WCHAR name[64];
    size_t want = strlen(iface) + 1;
    ULONG n = 0;
    HRESULT hr;
    if ((tok >> 24) == 0x01) {
        mdToken scope = 0;
        hr = MD(imp)->GetTypeRefProps(imp, tok, &scope, name, 64, &n);
    } else if ((tok >> 24) == 0x02) {
        DWORD flags = 0;
        mdToken ext = 0;
        hr = MD(imp)->GetTypeDefProps(imp, tok, name, 64, &n, &flags, &ext);
    } else {
        return 0;
    }
    // n counts the terminating NUL.
    if (hr != S_OK || n != want)
        return 0;
    for (size_t i = 0; i + 1 < want; i++)
        if (name[i] != (WCHAR)iface[i])
            return 0;
    return 1;
}

static int implements(void *imp, mdTypeDef td, const char *want) {
    HCORENUM e = NULL;
    mdInterfaceImpl impls[16];
    ULONG got = 0;
    int found = 0;
    while (!found && MD(imp)->EnumInterfaceImpls(imp, &e, td, impls, 16, &got) == S_OK && got > 0) {
        for (ULONG i = 0; i < got && !found; i++) {
            mdTypeDef cls = 0;
            mdToken iface = 0;
            if (MD(imp)->GetInterfaceImplProps(imp, impls[i], &cls, &iface) == S_OK)
                found = is_iface(imp, iface, want);
        }
    }
    if (e != NULL)
        MD(imp)->CloseEnum(imp, e);
    return found;
}


// The task builders' SetResult/SetException methods, by module and
// MethodDef: they end an async method's span (hooks.c). A builder is a
// type with the C# builder pattern's AwaitUnsafeOnCompleted; in modules
// with native code only CoreLib's are looked for, by their type names.
// CoreLib's methods that queue work (queue.c) are kept here too, as
// ASYNC_SPECIAL_QUEUE. Written under g_special_mu at module load; read
// lock-free by count.
enum { MAX_SPECIAL_METHODS = 512 };
static struct {
    uintptr_t mid;
    uint32_t tok;
    int kind;
} g_special[MAX_SPECIAL_METHODS];
static _Atomic uint32_t g_nspecial;
static pthread_mutex_t g_special_mu = PTHREAD_MUTEX_INITIALIZER;

int clr_async_special_method(uintptr_t mid, uint32_t tok) {
    uint32_t n = atomic_load_explicit(&g_nspecial, memory_order_acquire);
    for (uint32_t i = 0; i < n; i++)
        if (g_special[i].mid == mid && g_special[i].tok == tok)
            return g_special[i].kind;
    return 0;
}

static void ascii16(uint16_t *out, const char *s) {
    while ((*out++ = (uint16_t)(unsigned char)*s++) != 0) {
    }
}

static int has_method(void *imp, mdTypeDef td, const char *name) {
    uint16_t n16[64];
    ascii16(n16, name);
    HCORENUM e = NULL;
    mdMethodDef md[4];
    ULONG got = 0;
    int found = MD(imp)->EnumMethodsWithName(imp, &e, td, (const WCHAR *)n16, md, 4, &got) == S_OK && got > 0;
    if (e != NULL)
        MD(imp)->CloseEnum(imp, e);
    return found;
}

// Registers td's methods of the given names (every overload) as kind.
// The kind of a work item's maker (workitems.c's table).
static int work_make_kind(const clr_work_api *w) {
    return w->repeat ? ASYNC_SPECIAL_WORK_MAKE_REPEAT : w->promise ? ASYNC_SPECIAL_WORK_MAKE_PROMISE : ASYNC_SPECIAL_WORK_MAKE;
}

static void add_special(void *imp, uintptr_t mid, mdTypeDef td, const char *const *names, int nnames, int kind) {
    pthread_mutex_lock(&g_special_mu);
    for (int k = 0; k < nnames; k++) {
        uint16_t n16[32];
        ascii16(n16, names[k]);
        HCORENUM e = NULL;
        mdMethodDef md[32];
        ULONG got = 0;
        if (MD(imp)->EnumMethodsWithName(imp, &e, td, (const WCHAR *)n16, md, 32, &got) == S_OK) {
            uint32_t n = atomic_load_explicit(&g_nspecial, memory_order_relaxed);
            for (ULONG i = 0; i < got && n < MAX_SPECIAL_METHODS; i++, n++) {
                g_special[n].mid = mid;
                g_special[n].tok = md[i];
                g_special[n].kind = kind;
            }
            atomic_store_explicit(&g_nspecial, n, memory_order_release);
        }
        if (e != NULL)
            MD(imp)->CloseEnum(imp, e);
    }
    pthread_mutex_unlock(&g_special_mu);
}

// As add_special, the methods found in an image (imagemd.c).
static void image_specials(const md_image *img, uintptr_t mid, mdTypeDef td, const char *const *names, int nnames, int kind) {
    pthread_mutex_lock(&g_special_mu);
    uint32_t n = atomic_load_explicit(&g_nspecial, memory_order_relaxed);
    for (int k = 0; k < nnames; k++) {
        uint32_t md[32];
        int got = md_image_methods_named(img, td, names[k], md, 32);
        for (int j = 0; j < got && j < 32 && n < MAX_SPECIAL_METHODS; j++, n++) {
            g_special[n].mid = mid;
            g_special[n].tok = md[j];
            g_special[n].kind = kind;
        }
    }
    atomic_store_explicit(&g_nspecial, n, memory_order_release);
    pthread_mutex_unlock(&g_special_mu);
}

static void add_builder(void *imp, uintptr_t mid, mdTypeDef td) {
    static const char *const names[] = {"SetResult", "SetException"};
    add_special(imp, mid, td, names, 2, ASYNC_SPECIAL_BUILDER);
}

// CoreLib's builders (the ones the C# compiler picks for Task, Task<T>,
// ValueTask, ValueTask<T> and async void, and the pooling ones of .NET 6+),
// and its methods that queue work with a callback (queue.c).
static void corelib_specials(uintptr_t mid, const uint8_t *base, int flat) {
    static const char *const types[] = {
        "System.Runtime.CompilerServices.AsyncTaskMethodBuilder",
        "System.Runtime.CompilerServices.AsyncTaskMethodBuilder`1",
        "System.Runtime.CompilerServices.AsyncValueTaskMethodBuilder",
        "System.Runtime.CompilerServices.AsyncValueTaskMethodBuilder`1",
        "System.Runtime.CompilerServices.AsyncVoidMethodBuilder",
        "System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder",
        "System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder`1",
    };
    // From CoreLib's image (imagemd.c): its public importer would make the
    // runtime read CoreLib's metadata the slow way for the whole run.
    md_image img;
    if (md_image_open_loaded(&img, base, flat) == 0) {
        static const char ns[] = "System.Runtime.CompilerServices.";
        if (md_image_find_type(&img, "System.Runtime.CompilerServices", "AsyncTaskMethodBuilder") == 0)
            return;
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
            mdTypeDef td = md_image_find_type(&img, "System.Runtime.CompilerServices", types[i] + sizeof ns - 1);
            if (td == 0 || md_image_methods_named(&img, td, "AwaitUnsafeOnCompleted", NULL, 0) == 0)
                continue;
            static const char *const names[] = {"SetResult", "SetException"};
            image_specials(&img, mid, td, names, 2, ASYNC_SPECIAL_BUILDER);
        }
        for (const clr_queue_api *q = clr_queue_apis; q->type != NULL; q++) {
            const char *dot = strrchr(q->type, '.');
            char qns[64];
            size_t nl = (size_t)(dot - q->type);
            if (dot == NULL || nl >= sizeof qns)
                continue;
            memcpy(qns, q->type, nl);
            qns[nl] = 0;
            mdTypeDef td = md_image_find_type(&img, qns, dot + 1);
            if (td != 0)
                image_specials(&img, mid, td, q->methods, q->nmethods, ASYNC_SPECIAL_QUEUE);
        }
        for (const clr_work_api *w = clr_work_apis; w->type != NULL; w++) {
            mdTypeDef td = md_image_find_type(&img, w->ns, w->type);
            if (td == 0 || md_image_methods_named(&img, td, w->make, NULL, 0) == 0 ||
                md_image_methods_named(&img, td, w->run, NULL, 0) == 0)
                continue;
            image_specials(&img, mid, td, &w->make, 1, work_make_kind(w));
            image_specials(&img, mid, td, &w->run, 1, w->repeat ? ASYNC_SPECIAL_WORK_REPEAT : ASYNC_SPECIAL_WORK_RUN);
            mdTypeDef in = w->inliner_type != NULL ? md_image_find_type(&img, w->ns, w->inliner_type) : 0;
            if (in != 0)
                image_specials(&img, mid, in, &w->inliner, 1, ASYNC_SPECIAL_COMPILE);
        }
        return;
    }
    void *imp = clr_module_import(mid);
    if (imp == NULL)
        return;
    mdTypeDef td = 0;
    uint16_t n16[96];
    ascii16(n16, "System.Runtime.CompilerServices.AsyncTaskMethodBuilder");
    // Only CoreLib defines the first one.
    if (MD(imp)->FindTypeDefByName(imp, (const WCHAR *)n16, 0, &td) == S_OK) {
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
            ascii16(n16, types[i]);
            if (MD(imp)->FindTypeDefByName(imp, (const WCHAR *)n16, 0, &td) == S_OK &&
                has_method(imp, td, "AwaitUnsafeOnCompleted"))
                add_builder(imp, mid, td);
        }
        for (const clr_queue_api *q = clr_queue_apis; q->type != NULL; q++) {
            ascii16(n16, q->type);
            if (MD(imp)->FindTypeDefByName(imp, (const WCHAR *)n16, 0, &td) == S_OK)
                add_special(imp, mid, td, q->methods, q->nmethods, ASYNC_SPECIAL_QUEUE);
        }
        for (const clr_work_api *w = clr_work_apis; w->type != NULL; w++) {
            char full[128];
            snprintf(full, sizeof full, "%s.%s", w->ns, w->type);
            ascii16(n16, full);
            if (MD(imp)->FindTypeDefByName(imp, (const WCHAR *)n16, 0, &td) != S_OK || !has_method(imp, td, w->make) ||
                !has_method(imp, td, w->run))
                continue;
            add_special(imp, mid, td, &w->make, 1, work_make_kind(w));
            add_special(imp, mid, td, &w->run, 1, w->repeat ? ASYNC_SPECIAL_WORK_REPEAT : ASYNC_SPECIAL_WORK_RUN);
            if (w->inliner_type == NULL)
                continue;
            snprintf(full, sizeof full, "%s.%s", w->ns, w->inliner_type);
            ascii16(n16, full);
            if (MD(imp)->FindTypeDefByName(imp, (const WCHAR *)n16, 0, &td) == S_OK)
                add_special(imp, mid, td, &w->inliner, 1, ASYNC_SPECIAL_COMPILE);
        }
    }
    MD(imp)->Release(imp);
}

void clr_async_module_loading(uintptr_t mid) {
    if (!g_async_on)
        return;
    LPCBYTE base = NULL;
    ULONG n = 0;
    AssemblyID asm_id = 0;
    DWORD flags = 0;
    WCHAR path[1024];
    if (INFO->GetModuleInfo2 == NULL || g_rt.version < 3 ||
        INFO->GetModuleInfo2(SELF, mid, &base, 1024, &n, path, &asm_id, &flags) < 0 || n == 0 || n > 1024)
        return;
    // The file name, to keep the runtime's own assemblies out whatever
    // their image holds.
    const WCHAR *file = path;
    for (ULONG i = 0; i + 1 < n; i++)
        if (path[i] == '/' || path[i] == '\\')
            file = path + i + 1;
    if (wprefix(file, "System.Private.CoreLib.")) {
        corelib_specials(mid, base, (flags & COR_PRF_MODULE_FLAT_LAYOUT) != 0);
        return;
    }
    if (clr_framework_file(file))
        return;
    if (flags & (COR_PRF_MODULE_NGEN | COR_PRF_MODULE_DYNAMIC | COR_PRF_MODULE_RESOURCE)) {
        if (flags & COR_PRF_MODULE_NGEN)
            atomic_fetch_add_explicit(&g_async_modules, 1, memory_order_relaxed);
        return;
    }
    // Each question below costs the importer an enumeration per type. A
    // name missing from the module's string heap answers it for every
    // type at once: no state machine without the interface's name, no
    // builder without its method's, no closure or iterator without the
    // attribute's. A module with none of them is not opened for writing.
    md_image img;
    int img_ok = md_image_open_loaded(&img, base, (flags & COR_PRF_MODULE_FLAT_LAYOUT) != 0) == 0;
    int may_sm = !img_ok || md_image_names(&img, simple_name(k_iface));
    int may_builder = !img_ok || md_image_names(&img, "AwaitUnsafeOnCompleted");
    int may_closure = !img_ok || md_image_names(&img, simple_name(k_compiler_generated));
    if (!may_sm && !may_builder && !may_closure)
        return;
    void *imp = NULL, *emit = NULL;
    if (INFO->GetModuleMetaData(SELF, mid, ofRead | ofWrite, &IID_IMetaDataEmit, &emit) < 0 || emit == NULL)
        return;
    if ((*(MDEmitVtbl **)emit)->QueryInterface(emit, &IID_IMetaDataImport2, &imp) < 0 || imp == NULL) {
        (*(MDEmitVtbl **)emit)->Release(emit);
        return;
    }
    // Two passes: find every state machine first, then add the fields, so
    // that the enumeration never runs over tables being written.
    enum { MAX_SM = 4096 };
    mdTypeDef found[MAX_SM], closures[MAX_SM], iters[MAX_SM]; // 48 KiB of the loading thread's stack
    uint32_t nfound = 0, nclosures = 0, niters = 0;
    HCORENUM e = NULL;
    mdTypeDef tds[64];
    ULONG got = 0;
    while (MD(imp)->EnumTypeDefs(imp, &e, tds, 64, &got) == S_OK && got > 0) {
        for (ULONG i = 0; i < got; i++) {
            DWORD tf = 0;
            mdToken ext = 0;
            ULONG nl = 0;
            if (MD(imp)->GetTypeDefProps(imp, tds[i], NULL, 0, &nl, &tf, &ext) != S_OK)
                continue;
            if ((tf & tdLayoutMask) == tdExplicitLayout)
                continue;
            if (may_sm && nfound < MAX_SM && implements(imp, tds[i], k_iface)) {
                found[nfound++] = tds[i];
            } else if (may_builder && has_method(imp, tds[i], "AwaitUnsafeOnCompleted")) {
                add_builder(imp, mid, tds[i]); // an app's own task builder
            } else if (may_closure && is_closure(imp, tds[i], tf, ext)) {
                // A compiler-generated enumerator is an iterator's state
                // machine, not a closure.
                if (implements(imp, tds[i], k_enumerator)) {
                    if (niters < MAX_SM)
                        iters[niters++] = tds[i];
                } else if (nclosures < MAX_SM) {
                    closures[nclosures++] = tds[i];
                }
            }
        }
    }
    if (e != NULL)
        MD(imp)->CloseEnum(imp, e);
    static const uint8_t sig[] = {0x06 /* FIELD */, 0x0a /* ELEMENT_TYPE_I8 */};
    for (uint32_t k = 0; k < nfound + nclosures + niters; k++) {
        int kind = k < nfound ? ASYNC_KIND_STATE_MACHINE : k < nfound + nclosures ? ASYNC_KIND_CLOSURE : ASYNC_KIND_ITERATOR;
        mdTypeDef td = kind == ASYNC_KIND_STATE_MACHINE ? found[k] : kind == ASYNC_KIND_CLOSURE ? closures[k - nfound] : iters[k - nfound - nclosures];
        int closure = kind == ASYNC_KIND_CLOSURE;
        int ok = 1;
        for (int i = 0; i < clr_async_field_count(kind) && ok; i++) {
            uint16_t name[16];
            mdFieldDef fd = 0;
            field_name(name, i, kind);
            ok = (*(MDEmitVtbl **)emit)->DefineField(emit, td, (const WCHAR *)name, fdPrivate, sig, sizeof sig, 0, NULL, 0, &fd) >= 0;
        }
        if (ok)
            atomic_fetch_add_explicit(closure ? &g_closure_types : &g_async_types, 1, memory_order_relaxed);
    }
    MD(imp)->Release(imp);
    (*(MDEmitVtbl **)emit)->Release(emit);
}

int md_attribute_blob(void *imp, uint32_t tok, const uint16_t *name, const uint8_t **data, uint32_t *len) {
    const void *d = NULL;
    ULONG n = 0;
    if (MD(imp)->GetCustomAttributeByName(imp, tok, (const WCHAR *)name, &d, &n) != S_OK || d == NULL)
        return -1;
    *data = (const uint8_t *)d;
    *len = n;
    return 0;
}
