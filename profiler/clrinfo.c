// clrinfo.c: flat C wrappers over ICorProfilerInfo and IMetaDataImport2 for
// the Go side, which cannot call through COM vtables itself.
//
// Called from Go, either on the profiler's own threads (unknown to the
// runtime, where these calls are allowed at any time) or inside the
// once-per-function JIT-time calls. Names come back as UTF-16; Go decodes.
//
// Every buffer handed to the runtime is either NULL with a capacity of 0
// (the runtime then only reports the length) or exactly as large as the
// capacity passed with it. Go asks for a name's length first and then
// passes a buffer of that size (clr/names.go, askName). .NET 8's
// metadata reader writes a name into a non-NULL buffer even when told its
// capacity is 0: a one-character buffer passed that way let a long enum
// member name overwrite the caller's stack.
#include <string.h>

#include <stdatomic.h>

#include "clrinfo.h"
#include "profiler.h"

#define INFO (g_rt.vtbl)
#define SELF (g_rt.info)
#define MD(imp) (*(MDImportVtbl **)(imp))

static clr_runtime g_rt;
void clr_clrinfo_init(const clr_runtime *rt) { g_rt = *rt; }
// A name buffer and its capacity as the runtime gets them: NULL and 0
// together, or neither.
#define NAMEBUF(p, cap) ((p) != NULL && (cap) != 0 ? (WCHAR *)(p) : NULL), ((p) != NULL ? (cap) : 0)

int clr_function_info(uintptr_t fid, clr_function_desc *out) {
    memset(out, 0, sizeof *out);
    ClassID cls = 0;
    ModuleID mod = 0;
    mdToken tok = 0;
    ULONG32 n = 0;
    HRESULT hr = INFO->GetFunctionInfo2(SELF, fid, 0, &cls, &mod, &tok, CLR_MAX_TYPE_ARGS, &n, out->type_args);
    if (hr < 0)
        return hr;
    // The runtime fills at most the capacity given and reports the real
    // count: more type arguments than that is an error, not a cut name.
    if (n > CLR_MAX_TYPE_ARGS)
        return CLR_E_TOO_MANY;
    out->class_id = cls;
    out->module_id = mod;
    out->token = tok;
    out->n_type_args = n;
    return 0;
}

// The calls that take a ClassID run guarded (guard.h): the ClassIDs come
// from the hooks, which read them off objects.

int clr_class_info(uintptr_t cid, clr_class_desc *out) {
    memset(out, 0, sizeof *out);
    CorElementType elem = 0;
    ClassID base = 0;
    ULONG rank = 0;
    // Arrays have no TypeDef: report their element and rank instead.
    if (clr_guarded_is_array_class(&g_rt, cid, &elem, &base, &rank) == S_OK) {
        out->is_array = 1;
        out->elem_type = (uint32_t)elem;
        out->elem_class = base;
        out->rank = rank;
        return 0;
    }
    ModuleID mod = 0;
    mdTypeDef td = 0;
    ClassID parent = 0;
    ULONG32 n = 0;
    HRESULT hr = clr_guarded_class_id_info2(&g_rt, cid, &mod, &td, &parent, CLR_MAX_TYPE_ARGS, &n, out->type_args);
    if (hr < 0)
        return hr;
    if (n > CLR_MAX_TYPE_ARGS)
        return CLR_E_TOO_MANY;
    // A class outside every module the runtime reported loading is what a
    // garbage type pointer looks like: nothing more is asked about it.
    if (!clr_module_known(mod))
        return CLR_E_GUARD_FAULT;
    out->module_id = mod;
    out->token = td;
    out->parent = parent;
    out->n_type_args = n;
    return 0;
}

int clr_module_info(uintptr_t mid, uint16_t *path, uint32_t cap, uint32_t *len, uint16_t *asm_name, uint32_t asm_cap, uint32_t *asm_len) {
    LPCBYTE base = NULL;
    ULONG n = 0;
    AssemblyID aid = 0;
    HRESULT hr = INFO->GetModuleInfo(SELF, mid, &base, path != NULL ? cap : 0, &n, cap != 0 ? (WCHAR *)path : NULL, &aid);
    if (hr < 0)
        return hr;
    *len = n;
    *asm_len = 0;
    AppDomainID ad = 0;
    ModuleID manifest = 0;
    ULONG an = 0;
    if (aid != 0 && INFO->GetAssemblyInfo(SELF, aid, asm_name != NULL ? asm_cap : 0, &an, asm_cap != 0 ? (WCHAR *)asm_name : NULL, &ad, &manifest) >= 0)
        *asm_len = an;
    return 0;
}

void *clr_module_import(uintptr_t mid) {
    void *imp = NULL;
    if (INFO->GetModuleMetaData(SELF, mid, 0 /* ofRead */, &IID_IMetaDataImport2, &imp) < 0)
        return NULL;
    return imp;
}

int md_method_props(void *imp, uint32_t md, uint32_t *owner, uint16_t *name, uint32_t cap, uint32_t *len,
                    uint32_t *attrs, const uint8_t **sig, uint32_t *sig_len) {
    mdTypeDef td = 0;
    ULONG n = 0, sl = 0, rva = 0;
    DWORD a = 0, impl = 0;
    PCCOR_SIGNATURE s = NULL;
    HRESULT hr = MD(imp)->GetMethodProps(imp, md, &td, NAMEBUF(name, cap), &n, &a, &s, &sl, &rva, &impl);
    if (hr < 0)
        return hr;
    *owner = td;
    *len = n;
    *attrs = a;
    *sig = s;
    *sig_len = sl;
    return 0;
}

int md_typedef_props(void *imp, uint32_t td, uint16_t *name, uint32_t cap, uint32_t *len, uint32_t *flags, uint32_t *extends) {
    ULONG n = 0;
    DWORD f = 0;
    mdToken ext = 0;
    HRESULT hr = MD(imp)->GetTypeDefProps(imp, td, NAMEBUF(name, cap), &n, &f, &ext);
    if (hr < 0)
        return hr;
    *len = n;
    *flags = f;
    *extends = ext;
    return 0;
}

int md_enclosing_class(void *imp, uint32_t td, uint32_t *enclosing) {
    mdTypeDef e = 0;
    HRESULT hr = MD(imp)->GetNestedClassProps(imp, td, &e);
    *enclosing = hr < 0 ? 0 : e;
    return hr < 0 ? hr : 0;
}

int md_typeref_props(void *imp, uint32_t tr, uint32_t *scope, uint16_t *name, uint32_t cap, uint32_t *len) {
    mdToken sc = 0;
    ULONG n = 0;
    HRESULT hr = MD(imp)->GetTypeRefProps(imp, tr, &sc, NAMEBUF(name, cap), &n);
    if (hr < 0)
        return hr;
    *scope = sc;
    *len = n;
    return 0;
}

// A MemberRef's parent, name and signature (the module's memory).
int md_memberref_props(void *imp, uint32_t mr, uint32_t *parent, uint16_t *name, uint32_t cap, uint32_t *len,
                       const uint8_t **sig, uint32_t *sig_len) {
    mdToken p = 0;
    ULONG n = 0, sl = 0;
    PCCOR_SIGNATURE s = NULL;
    HRESULT hr = MD(imp)->GetMemberRefProps(imp, mr, &p, NAMEBUF(name, cap), &n, &s, &sl);
    if (hr < 0)
        return hr;
    *parent = p;
    *len = n;
    *sig = s;
    *sig_len = sl;
    return 0;
}

// The method a MethodSpec instantiates: a MethodDef or a MemberRef.
int md_methodspec_parent(void *imp, uint32_t ms, uint32_t *parent) {
    mdToken p = 0;
    PCCOR_SIGNATURE s = NULL;
    ULONG sl = 0;
    HRESULT hr = MD(imp)->GetMethodSpecProps(imp, ms, &p, &s, &sl);
    if (hr < 0)
        return hr;
    *parent = p;
    return 0;
}

// The MethodDef of TypeDef td with this name (NUL-terminated UTF-16) and
// signature: S_OK, or CLDB_E_RECORD_NOTFOUND.
int md_find_method(void *imp, uint32_t td, const uint16_t *name, const uint8_t *sig, uint32_t sig_len, uint32_t *md) {
    mdMethodDef m = 0;
    HRESULT hr = MD(imp)->FindMethod(imp, td, (const WCHAR *)name, sig, sig_len, &m);
    if (hr != S_OK)
        return hr < 0 ? hr : -1;
    *md = m;
    return 0;
}

// A MethodDef's body, header and IL (the runtime's memory, valid while
// the module is loaded).
int clr_il_body(uintptr_t mid, uint32_t md, const uint8_t **body, uint32_t *len) {
    LPCBYTE b = NULL;
    ULONG n = 0;
    HRESULT hr = INFO->GetILFunctionBody(SELF, mid, md, &b, &n);
    if (hr < 0)
        return hr;
    if (b == NULL)
        return -1;
    *body = b;
    *len = n;
    return 0;
}

int md_typespec(void *imp, uint32_t ts, const uint8_t **sig, uint32_t *len) {
    PCCOR_SIGNATURE s = NULL;
    ULONG n = 0;
    HRESULT hr = MD(imp)->GetTypeSpecFromToken(imp, ts, &s, &n);
    if (hr < 0)
        return hr;
    *sig = s;
    *len = n;
    return 0;
}

// Ends one call of an enumeration that filled n tokens (hr its result):
// *count is how many it filled, *total how many there are in all, and the
// enumeration is closed.
static int enum_end(void *imp, HCORENUM e, HRESULT hr, ULONG n, uint32_t *count, uint32_t *total) {
    ULONG all = n;
    if (e != NULL) {
        if (hr >= 0)
            MD(imp)->CountEnum(imp, e, &all);
        MD(imp)->CloseEnum(imp, e);
    }
    *count = hr < 0 ? 0 : n;
    *total = hr < 0 ? 0 : (all > n ? all : n);
    return hr < 0 ? hr : 0;
}

// Lists a method's parameter rows (sequence 0 is the return value). The
// enumerations fill at most cap tokens and report in *total how many there
// are: the caller asks again with room for all of them.
int md_params(void *imp, uint32_t md, uint32_t *tokens, uint32_t cap, uint32_t *count, uint32_t *total) {
    HCORENUM e = NULL;
    ULONG n = 0;
    HRESULT hr = MD(imp)->EnumParams(imp, &e, md, tokens, cap, &n);
    return enum_end(imp, e, hr, n, count, total);
}

// The MethodDefs of TypeDef td named name (NUL-terminated UTF-16): its
// overloads.
int md_methods_named(void *imp, uint32_t td, const uint16_t *name, uint32_t *tokens, uint32_t cap, uint32_t *count,
                     uint32_t *total) {
    HCORENUM e = NULL;
    ULONG n = 0;
    HRESULT hr = MD(imp)->EnumMethodsWithName(imp, &e, td, (const WCHAR *)name, tokens, cap, &n);
    return enum_end(imp, e, hr, n, count, total);
}

int md_param_props(void *imp, uint32_t pd, uint32_t *seq, uint16_t *name, uint32_t cap, uint32_t *len, uint32_t *attrs) {
    mdMethodDef md = 0;
    ULONG s = 0, n = 0, cv = 0;
    DWORD a = 0, ctype = 0;
    UVCP_CONSTANT v = NULL;
    HRESULT hr = MD(imp)->GetParamProps(imp, pd, &md, &s, NAMEBUF(name, cap), &n, &a, &ctype, &v, &cv);
    if (hr < 0)
        return hr;
    *seq = s;
    *len = n;
    *attrs = a;
    return 0;
}

int md_generic_params(void *imp, uint32_t owner, uint32_t *tokens, uint32_t cap, uint32_t *count, uint32_t *total) {
    HCORENUM e = NULL;
    ULONG n = 0;
    HRESULT hr = MD(imp)->EnumGenericParams(imp, &e, owner, tokens, cap, &n);
    return enum_end(imp, e, hr, n, count, total);
}

int md_generic_param_props(void *imp, uint32_t gp, uint32_t *seq, uint16_t *name, uint32_t cap, uint32_t *len) {
    ULONG s = 0, n = 0;
    DWORD flags = 0, reserved = 0;
    mdToken owner = 0;
    HRESULT hr = MD(imp)->GetGenericParamProps(imp, gp, &s, &flags, &owner, &reserved, NAMEBUF(name, cap), &n);
    if (hr < 0)
        return hr;
    *seq = s;
    *len = n;
    return 0;
}

// Fills fields (NULL with cap 0: only the count) with the class's instance
// fields; *count is how many the class has, which may exceed cap: the
// caller then asks again with room for all of them.
int clr_class_layout(uintptr_t cid, clr_field_offset *fields, uint32_t cap, uint32_t *count, uint32_t *size) {
    ULONG n = 0, sz = 0;
    _Static_assert(sizeof(clr_field_offset) == sizeof(COR_FIELD_OFFSET), "clr_field_offset mirrors COR_FIELD_OFFSET");
    HRESULT hr = clr_guarded_class_layout(&g_rt, cid, (COR_FIELD_OFFSET *)fields, fields == NULL ? 0 : cap, &n, &sz);
    if (hr < 0)
        return hr;
    *count = n;
    *size = sz;
    return 0;
}

int clr_box_offset(uintptr_t cid, uint32_t *offset) {
    ULONG32 off = 0;
    HRESULT hr = clr_guarded_box_class_layout(&g_rt, cid, &off);
    *offset = off;
    return hr < 0 ? hr : 0;
}

int clr_string_layout(uint32_t *len_offset, uint32_t *buf_offset) {
    ULONG l = 0, b = 0;
    HRESULT hr = INFO->GetStringLayout2(SELF, &l, &b);
    *len_offset = l;
    *buf_offset = b;
    return hr < 0 ? hr : 0;
}

int clr_class_from_token(uintptr_t mid, uint32_t td, uintptr_t *cid) {
    ClassID c = 0;
    HRESULT hr = INFO->GetClassFromToken(SELF, mid, td, &c);
    *cid = c;
    return hr < 0 ? hr : 0;
}

int md_field_props(void *imp, uint32_t fd, uint32_t *owner, uint16_t *name, uint32_t cap, uint32_t *len,
                   uint32_t *attrs, const uint8_t **sig, uint32_t *sig_len) {
    mdTypeDef td = 0;
    ULONG n = 0, sl = 0, cv = 0;
    DWORD a = 0, ctype = 0;
    PCCOR_SIGNATURE s = NULL;
    UVCP_CONSTANT v = NULL;
    HRESULT hr = MD(imp)->GetFieldProps(imp, fd, &td, NAMEBUF(name, cap), &n, &a, &s, &sl, &ctype, &v, &cv);
    if (hr < 0)
        return hr;
    *owner = td;
    *len = n;
    *attrs = a;
    *sig = s;
    *sig_len = sl;
    return 0;
}

// Lists a type's fields (static ones too) with their literal values, for
// enums: value is the constant's bits, zero-extended.
int md_enum_fields(void *imp, uint32_t td, uint32_t *tokens, uint32_t cap, uint32_t *count, uint32_t *total) {
    HCORENUM e = NULL;
    ULONG n = 0;
    HRESULT hr = MD(imp)->EnumFields(imp, &e, td, tokens, cap, &n);
    return enum_end(imp, e, hr, n, count, total);
}

int md_field_constant(void *imp, uint32_t fd, uint64_t *value, uint32_t *attrs) {
    mdTypeDef td = 0;
    ULONG n = 0, sl = 0, cv = 0;
    DWORD a = 0, ctype = 0;
    PCCOR_SIGNATURE s = NULL;
    UVCP_CONSTANT v = NULL;
    // No name wanted: NULL, never a short buffer (see the top of the file).
    HRESULT hr = MD(imp)->GetFieldProps(imp, fd, &td, NULL, 0, &n, &a, &s, &sl, &ctype, &v, &cv);
    if (hr < 0)
        return hr;
    *attrs = a;
    *value = 0;
    if (v != NULL) {
        switch (ctype) {
        case ELEMENT_TYPE_BOOLEAN: case ELEMENT_TYPE_I1: case ELEMENT_TYPE_U1: *value = *(const uint8_t *)v; break;
        case ELEMENT_TYPE_CHAR: case ELEMENT_TYPE_I2: case ELEMENT_TYPE_U2: *value = *(const uint16_t *)v; break;
        case ELEMENT_TYPE_I4: case ELEMENT_TYPE_U4: *value = *(const uint32_t *)v; break;
        case ELEMENT_TYPE_I8: case ELEMENT_TYPE_U8: *value = *(const uint64_t *)v; break;
        default: return 1;
        }
        return 0;
    }
    return 1;
}

int md_find_typedef(void *imp, const uint16_t *name, uint32_t enclosing, uint32_t *td) {
    mdTypeDef t = 0;
    HRESULT hr = MD(imp)->FindTypeDefByName(imp, (const WCHAR *)name, enclosing, &t);
    *td = t;
    return hr < 0 ? hr : (hr == S_OK ? 0 : 1);
}

// ---- modules the runtime has loaded (ModuleLoadFinished) -----------------

enum { MAX_MODULES = 8192 };
static _Atomic uintptr_t g_modules[MAX_MODULES];
static _Atomic uint32_t g_nmodules;

void clr_module_loaded(uintptr_t mid) {
    uint32_t i = atomic_fetch_add(&g_nmodules, 1);
    if (i < MAX_MODULES)
        atomic_store(&g_modules[i], mid);
}

void clr_module_unloaded(uintptr_t mid) {
    uint32_t n = atomic_load(&g_nmodules);
    for (uint32_t i = 0; i < n && i < MAX_MODULES; i++) {
        uintptr_t want = mid;
        atomic_compare_exchange_strong(&g_modules[i], &want, 0);
    }
}

int clr_module_known(uintptr_t mid) {
    uint32_t n = atomic_load(&g_nmodules);
    for (uint32_t i = 0; mid != 0 && i < n && i < MAX_MODULES; i++)
        if (atomic_load_explicit(&g_modules[i], memory_order_relaxed) == mid)
            return 1;
    return 0;
}

uint32_t clr_modules(uintptr_t *out, uint32_t cap) {
    uint32_t n = atomic_load(&g_nmodules), k = 0;
    for (uint32_t i = 0; i < n && i < MAX_MODULES && k < cap; i++) {
        uintptr_t m = atomic_load(&g_modules[i]);
        if (m != 0)
            out[k++] = m;
    }
    return k;
}

int clr_runtime_version(uint16_t *major, uint16_t *minor) {
    uint16_t id = 0, build = 0, qfe = 0;
    uint32_t type = 0;
    ULONG n = 0;
    WCHAR ver[64];
    HRESULT hr = INFO->GetRuntimeInformation(SELF, &id, &type, major, minor, &build, &qfe, 64, &n, ver);
    return hr < 0 ? hr : 0;
}

int clr_class_from_token_args(uintptr_t mid, uint32_t td, uint32_t n, uintptr_t *args, uintptr_t *cid) {
    ClassID c = 0;
    HRESULT hr = INFO->GetClassFromTokenAndTypeArgs(SELF, mid, td, n, (ClassID *)args, &c);
    *cid = c;
    return hr < 0 ? hr : 0;
}

// clr_code_function finds the method whose code a delegate's method pointer
// leads to. That pointer is usually not the code itself but a precode, a
// stub that jumps to the code once it is compiled: on .NET Core 3.1 a
// "jmp rel32" (E9), on .NET 7+ a "jmp [rip+disp32]" (FF 25) through the
// precode's data. Such jumps are followed (at most four steps), each target
// asked of GetFunctionFromIP, which names compiled managed code from any
// thread. A precode whose method is not compiled (or whose patching waits
// for a later tier: a stub made for ldftn) jumps to its own second half,
// which loads its MethodDesc into r10 (the register the prestub reads it
// from) before going on: "mov r10, [rip+disp32]" (4C 8B 15) on .NET 7+,
// "mov r10, imm64" (49 BA) before. That MethodDesc, a FunctionID in
// CoreCLR, is taken only when the runtime (asked guarded) knows it as a
// method of a loaded module. Anything else is "not known": the delegate
// shows without its method. Runs on a Go thread, never in a hook; memory
// is read through clr_safe_copy. Nothing of this runs on the app's thread:
// the hook copies the pointer fields with the delegate's others, and each
// address is resolved once (the planner's MethodAt caches).
__attribute__((noinline)) static HRESULT function_known(uintptr_t fid) {
    HRESULT hr;
    ClassID cls = 0;
    ModuleID mod = 0;
    mdToken tok = 0;
    ULONG32 n = 0;
    CLR_GUARDED(hr, INFO->GetFunctionInfo2(SELF, fid, 0, &cls, &mod, &tok, 0, &n, NULL));
    if (hr < 0 || mod == 0 || !clr_module_known(mod) || (tok >> 24) != 0x06)
        return E_FAIL;
    return S_OK;
}

int clr_code_function(uintptr_t ip, uintptr_t *fid) {
    for (int step = 0; step < 4 && ip != 0; step++) {
        FunctionID f = 0;
        if (INFO->GetFunctionFromIP(SELF, (LPCBYTE)ip, &f) >= 0 && f != 0) {
            *fid = f;
            return 0;
        }
        uint8_t op[10];
        int32_t rel;
        uintptr_t next = 0;
        if (clr_safe_copy(op, (const void *)ip, sizeof op) != 0)
            return -1;
        if (op[0] == 0xE9) { // jmp rel32
            memcpy(&rel, op + 1, 4);
            ip = ip + 5 + (intptr_t)rel;
        } else if (op[0] == 0xFF && op[1] == 0x25) { // jmp [rip+disp32]
            memcpy(&rel, op + 2, 4);
            if (clr_safe_copy(&next, (const void *)(ip + 6 + (intptr_t)rel), 8) != 0)
                return -1;
            ip = next;
        } else if (op[0] == 0x4C && op[1] == 0x8B && op[2] == 0x15) { // mov r10, [rip+disp32]
            memcpy(&rel, op + 3, 4);
            if (clr_safe_copy(&next, (const void *)(ip + 7 + (intptr_t)rel), 8) != 0 || function_known(next) != S_OK)
                return -1;
            *fid = next;
            return 0;
        } else if (op[0] == 0x49 && op[1] == 0xBA) { // mov r10, imm64
            memcpy(&next, op + 2, 8);
            if (function_known(next) != S_OK)
                return -1;
            *fid = next;
            return 0;
        } else {
            return -1;
        }
    }
    return -1;
}
