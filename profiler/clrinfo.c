// clrinfo.c: flat C wrappers over ICorProfilerInfo and IMetaDataImport2 for
// the Go side, which cannot call through COM vtables itself.
//
// Called from Go, either on the profiler's own threads (unknown to the
// runtime, where these calls are allowed at any time) or inside the
// once-per-function JIT-time calls. Names come back as UTF-16; Go decodes.
#include <string.h>

#include "clrinfo.h"
#include "profiler.h"

#define INFO (clr_info_vtbl())
#define SELF (clr_info())
#define MD(imp) (*(MDImportVtbl **)(imp))

int clr_function_info(uintptr_t fid, clr_function_desc *out) {
    memset(out, 0, sizeof *out);
    ClassID cls = 0;
    ModuleID mod = 0;
    mdToken tok = 0;
    ULONG32 n = 0;
    HRESULT hr = INFO->GetFunctionInfo2(SELF, fid, 0, &cls, &mod, &tok, CLR_MAX_TYPE_ARGS, &n, out->type_args);
    if (hr < 0)
        return hr;
    out->class_id = cls;
    out->module_id = mod;
    out->token = tok;
    out->n_type_args = n > CLR_MAX_TYPE_ARGS ? CLR_MAX_TYPE_ARGS : n;
    return 0;
}

int clr_class_info(uintptr_t cid, clr_class_desc *out) {
    memset(out, 0, sizeof *out);
    CorElementType elem = 0;
    ClassID base = 0;
    ULONG rank = 0;
    // Arrays have no TypeDef: report their element and rank instead.
    if (INFO->IsArrayClass(SELF, cid, &elem, &base, &rank) == S_OK) {
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
    HRESULT hr = INFO->GetClassIDInfo2(SELF, cid, &mod, &td, &parent, CLR_MAX_TYPE_ARGS, &n, out->type_args);
    if (hr < 0)
        return hr;
    out->module_id = mod;
    out->token = td;
    out->parent = parent;
    out->n_type_args = n > CLR_MAX_TYPE_ARGS ? CLR_MAX_TYPE_ARGS : n;
    return 0;
}

int clr_module_info(uintptr_t mid, uint16_t *path, uint32_t cap, uint32_t *len, uint16_t *asm_name, uint32_t asm_cap, uint32_t *asm_len) {
    LPCBYTE base = NULL;
    ULONG n = 0;
    AssemblyID aid = 0;
    HRESULT hr = INFO->GetModuleInfo(SELF, mid, &base, cap, &n, (WCHAR *)path, &aid);
    if (hr < 0)
        return hr;
    *len = n;
    *asm_len = 0;
    AppDomainID ad = 0;
    ModuleID manifest = 0;
    ULONG an = 0;
    if (aid != 0 && INFO->GetAssemblyInfo(SELF, aid, asm_cap, &an, (WCHAR *)asm_name, &ad, &manifest) >= 0)
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
    HRESULT hr = MD(imp)->GetMethodProps(imp, md, &td, (WCHAR *)name, cap, &n, &a, &s, &sl, &rva, &impl);
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
    HRESULT hr = MD(imp)->GetTypeDefProps(imp, td, (WCHAR *)name, cap, &n, &f, &ext);
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
    HRESULT hr = MD(imp)->GetTypeRefProps(imp, tr, &sc, (WCHAR *)name, cap, &n);
    if (hr < 0)
        return hr;
    *scope = sc;
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

// Lists a method's parameter rows (sequence 0 is the return value).
int md_params(void *imp, uint32_t md, uint32_t *tokens, uint32_t cap, uint32_t *count) {
    HCORENUM e = NULL;
    ULONG n = 0;
    HRESULT hr = MD(imp)->EnumParams(imp, &e, md, tokens, cap, &n);
    if (e != NULL)
        MD(imp)->CloseEnum(imp, e);
    *count = hr < 0 ? 0 : n;
    return hr < 0 ? hr : 0;
}

int md_param_props(void *imp, uint32_t pd, uint32_t *seq, uint16_t *name, uint32_t cap, uint32_t *len, uint32_t *attrs) {
    mdMethodDef md = 0;
    ULONG s = 0, n = 0, cv = 0;
    DWORD a = 0, ctype = 0;
    UVCP_CONSTANT v = NULL;
    HRESULT hr = MD(imp)->GetParamProps(imp, pd, &md, &s, (WCHAR *)name, cap, &n, &a, &ctype, &v, &cv);
    if (hr < 0)
        return hr;
    *seq = s;
    *len = n;
    *attrs = a;
    return 0;
}

int md_generic_params(void *imp, uint32_t owner, uint32_t *tokens, uint32_t cap, uint32_t *count) {
    HCORENUM e = NULL;
    ULONG n = 0;
    HRESULT hr = MD(imp)->EnumGenericParams(imp, &e, owner, tokens, cap, &n);
    if (e != NULL)
        MD(imp)->CloseEnum(imp, e);
    *count = hr < 0 ? 0 : n;
    return hr < 0 ? hr : 0;
}

int md_generic_param_props(void *imp, uint32_t gp, uint32_t *seq, uint16_t *name, uint32_t cap, uint32_t *len) {
    ULONG s = 0, n = 0;
    DWORD flags = 0, reserved = 0;
    mdToken owner = 0;
    HRESULT hr = MD(imp)->GetGenericParamProps(imp, gp, &s, &flags, &owner, &reserved, (WCHAR *)name, cap, &n);
    if (hr < 0)
        return hr;
    *seq = s;
    *len = n;
    return 0;
}
