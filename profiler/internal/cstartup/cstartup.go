package cstartup

/*
#cgo CFLAGS: -O1 -g -Wall -Wno-unused-function
#include <stdlib.h>
#include "../../startup.c"
#include "../../golazy.c"

// ---- a fake runtime: one module, its assembly name and its TypeDefs ----

static uint16_t f_asm[256];
static uint32_t f_asm_len; // with the terminating NUL
static uint16_t f_names[64][128];
static uint32_t f_lens[64], f_flags[64], f_ntypes;
static int f_imports_open;

static void f_close_enum(void *self, HCORENUM e) { (void)self; (void)e; }
static ULONG f_release(void *self) { (void)self; f_imports_open--; return 0; }

static HRESULT f_enum_typedefs(void *self, HCORENUM *e, mdTypeDef *out, ULONG cmax, ULONG *got) {
    (void)self;
    uintptr_t pos = (uintptr_t)*e;
    ULONG n = 0;
    while (pos < f_ntypes && n < cmax)
        out[n++] = 0x02000002 + (mdTypeDef)pos++;
    *e = (HCORENUM)pos; // the enumerator is the next position
    *got = n;
    return n > 0 ? S_OK : S_FALSE;
}

static HRESULT f_typedef_props(void *self, mdTypeDef td, WCHAR *name, ULONG cap, ULONG *len, DWORD *flags, mdToken *ext) {
    (void)self;
    uint32_t i = td - 0x02000002;
    if (i >= f_ntypes)
        return E_INVALIDARG;
    *len = f_lens[i] + 1;
    *flags = f_flags[i];
    *ext = 0;
    for (uint32_t k = 0; name != NULL && k < cap && k <= f_lens[i]; k++)
        name[k] = k < f_lens[i] ? f_names[i][k] : 0;
    return S_OK;
}

static MDImportVtbl f_md_vtbl;
static struct { MDImportVtbl *vtbl; } f_import = {&f_md_vtbl};

// The event mask as the fake runtime last saw it, and how often it changed.
static uint32_t f_mask, f_mask_sets;
static HRESULT f_set_event_mask(void *self, DWORD m) { (void)self; f_mask = m; f_mask_sets++; return S_OK; }
static ProfInfoVtbl f_info_vtbl = {.SetEventMask = f_set_event_mask};

static void f_init(uint32_t mask) { clr_startup_init(&(clr_runtime){NULL, &f_info_vtbl, 3}, mask, 0); }
static int f_enterleave(void) { return (f_mask & COR_PRF_MONITOR_ENTERLEAVE) != 0; }

int clr_module_info(uintptr_t mid, uint16_t *path, uint32_t cap, uint32_t *len, uint16_t *asm_name, uint32_t asm_cap, uint32_t *asm_len) {
    (void)mid; (void)path; (void)cap;
    *len = 0;
    *asm_len = f_asm_len;
    for (uint32_t k = 0; asm_name != NULL && k < asm_cap && k < f_asm_len; k++)
        asm_name[k] = f_asm[k];
    return 0;
}

void *clr_module_import(uintptr_t mid) {
    (void)mid;
    f_md_vtbl.CloseEnum = f_close_enum;
    f_md_vtbl.EnumTypeDefs = f_enum_typedefs;
    f_md_vtbl.GetTypeDefProps = f_typedef_props;
    f_md_vtbl.Release = f_release;
    f_imports_open++;
    return &f_import;
}

static void f_set_module(const char *asm_name, uint32_t ntypes) {
    uint32_t i = 0;
    for (; asm_name[i] != 0 && i < 255; i++)
        f_asm[i] = (uint16_t)asm_name[i];
    f_asm[i] = 0;
    f_asm_len = i + 1;
    f_ntypes = ntypes;
}

static void f_set_type(uint32_t i, const char *name, uint32_t flags) {
    uint32_t k = 0;
    for (; name[k] != 0 && k < 127; k++)
        f_names[i][k] = (uint16_t)name[k];
    f_lens[i] = k;
    f_flags[i] = flags;
}

static int f_in_scope(void) { return module_compute(0x5000) == MOD_MAYBE; }

// The scope read from CLROTEL_INCLUDE, left unfixed for the next test.
static void f_scope_include(const char *include) {
    clr_startup_scope_include(include);
    atomic_store(&g_scope_fixed, 0);
}

// A fake environment for clr_go_can_wait.
static const char *f_env_keys[16], *f_env_vals[16];
static int f_nenv;
static void f_env_reset(void) { f_nenv = 0; }
static void f_env_add(const char *k, const char *v) {
    if (f_nenv < 16) {
        f_env_keys[f_nenv] = k;
        f_env_vals[f_nenv] = v;
        f_nenv++;
    }
}
static char *f_getenv(const char *key) {
    for (int i = 0; i < f_nenv; i++)
        if (strcmp(f_env_keys[i], key) == 0)
            return (char *)f_env_vals[i];
    return NULL;
}
static int f_can_wait(int *rejit, int *async, int *has_include) {
    clr_lazy_env env;
    memset(&env, 0, sizeof env);
    int ok = clr_go_can_wait(f_getenv, &env);
    *rejit = env.rejit;
    *async = env.async;
    *has_include = env.include != NULL;
    return ok;
}
static int f_open_imports(void) { return f_imports_open; }
static int f_env_true(const char *v) { return clr_env_true(v); }
*/
import "C"

import (
	"unicode/utf16"
	"unsafe"
)

// Type is one TypeDef of the fake module.
type Type struct {
	Name   string // Namespace.Name, as metadata holds it ("List`1")
	Nested bool
}

// Init gives startup.c the event mask Initialize set.
func Init(mask uint32) { C.f_init(C.uint32_t(mask)) }

// Started, Mapped and Finished are the runtime's compile events for fid on
// this goroutine's thread; EnterLeave says whether the bit is set now.
func Started(fid uintptr)  { C.clr_startup_compile_started(C.FunctionID(fid)) }
func Mapped(fid uintptr)   { C.clr_startup_mapped(C.FunctionID(fid)) }
func Finished(fid uintptr) { C.clr_startup_compile_finished(C.FunctionID(fid)) }
func EnterLeave() bool     { return C.f_enterleave() != 0 }

// Scope configures startup.c as profiler/startup.go does.
func Scope(ownCodeOnly, reachesFramework bool, prefixes []string) {
	var buf []uint16
	for _, p := range prefixes {
		buf = append(append(buf, utf16.Encode([]rune(p))...), 0)
	}
	if len(buf) == 0 {
		buf = []uint16{0}
	}
	b2i := func(b bool) C.int {
		if b {
			return 1
		}
		return 0
	}
	C.clr_startup_scope(b2i(ownCodeOnly), b2i(reachesFramework), (*C.uint16_t)(unsafe.Pointer(&buf[0])), C.uint32_t(len(buf)))
}

// InScope asks startup.c whether a module of assembly asm holding types
// can hold a selected method, and says how many metadata importers it left
// open.
func InScope(asm string, types []Type) (bool, int) {
	ca := C.CString(asm)
	defer C.free(unsafe.Pointer(ca))
	C.f_set_module(ca, C.uint32_t(len(types)))
	for i, t := range types {
		cn := C.CString(t.Name)
		flags := C.uint32_t(1) // tdPublic
		if t.Nested {
			flags = 2 // tdNestedPublic
		}
		C.f_set_type(C.uint32_t(i), cn, flags)
		C.free(unsafe.Pointer(cn))
	}
	in := C.f_in_scope() != 0
	return in, int(C.f_open_imports())
}

// ScopeFromInclude configures startup.c from CLROTEL_INCLUDE as Initialize
// does when it does not wait for Go (nil: unset).
func ScopeFromInclude(include *string) {
	var c *C.char
	if include != nil {
		c = C.CString(*include)
		defer C.free(unsafe.Pointer(c))
	}
	C.f_scope_include(c)
}

// EnvTrue is clr_env_true: the OpenTelemetry specification's boolean.
func EnvTrue(v string) bool {
	cv := C.CString(v)
	defer C.free(unsafe.Pointer(cv))
	return C.f_env_true(cv) != 0
}

// LazyEnv is what Initialize reads from the environment without Go.
type LazyEnv struct {
	CanWait, ReJIT, Async, HasInclude bool
}

// ReadLazyEnv runs clr_go_can_wait over env.
func ReadLazyEnv(env map[string]string) LazyEnv {
	var strs []*C.char
	defer func() {
		for _, s := range strs {
			C.free(unsafe.Pointer(s))
		}
		C.f_env_reset()
	}()
	C.f_env_reset()
	for k, v := range env {
		ck, cv := C.CString(k), C.CString(v)
		strs = append(strs, ck, cv)
		C.f_env_add(ck, cv)
	}
	var rejit, async, inc C.int
	ok := C.f_can_wait(&rejit, &async, &inc) != 0
	return LazyEnv{CanWait: ok, ReJIT: rejit != 0, Async: async != 0, HasInclude: inc != 0}
}
