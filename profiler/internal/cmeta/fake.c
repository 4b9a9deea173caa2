// fake.c: a strict fake runtime for clrinfo.c (symlinked from the
// profiler, so that the go command hashes its contents).
//
// Every name-returning call checks the buffer contract: a NULL buffer comes
// with capacity 0, a non-NULL one with a capacity of at least 1. A
// non-NULL buffer is then filled over its whole claimed capacity before the
// name is copied in: a capacity larger than the buffer writes past it,
// which AddressSanitizer reports. A buffer with capacity 0 is written the
// way .NET 8's metadata reader was seen to write it: not at all here (the
// violation is counted instead of smashing the test's stack).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler.h"
#include "clrinfo.h"
#include "fake.h"

static ProfInfoVtbl g_info_vtbl;
static void *g_info = &g_info_vtbl;
static MDImportVtbl g_md_vtbl;
static void *g_md = &g_md_vtbl;

static char g_name[4096];
static uint32_t g_nfields, g_ntype_args;
static int g_violations;
static char g_last[256];

// The wrappers get the fake runtime as Initialize would give it.
__attribute__((constructor)) static void fake_runtime(void) { clr_clrinfo_init(&(clr_runtime){&g_info, &g_info_vtbl, 12}); }
void *fake_import(void) { return &g_md; }
int fake_violations(void) { return g_violations; }
const char *fake_last_violation(void) { return g_last; }

// No class is an array here.
static HRESULT f_is_array_class(void *self, ClassID cls, CorElementType *et, ClassID *ec, ULONG *rank) {
    (void)self; (void)cls; (void)et; (void)ec; (void)rank;
    return S_FALSE;
}

static void violate(const char *api, const char *what) {
    g_violations++;
    snprintf(g_last, sizeof g_last, "%s: %s", api, what);
}

static HRESULT put_name(const char *api, WCHAR *buf, ULONG cap, ULONG *pch) {
    ULONG len = (ULONG)strlen(g_name) + 1;
    if (pch != NULL)
        *pch = len;
    if (buf == NULL) {
        if (cap != 0)
            violate(api, "NULL buffer with a capacity");
        return S_OK;
    }
    if (cap == 0) {
        violate(api, "a buffer passed with capacity 0");
        return S_OK;
    }
    for (ULONG i = 0; i < cap; i++)
        buf[i] = 0xFFFF;
    ULONG n = len < cap ? len : cap;
    for (ULONG i = 0; i < n; i++)
        buf[i] = (WCHAR)(unsigned char)g_name[i];
    if (len > cap) {
        buf[cap - 1] = 0;
        return 0x00131106; // CLDB_S_TRUNCATION
    }
    return S_OK;
}

// Token arrays: the same contract, with the count of all entries.
static HRESULT put_tokens(const char *api, uint32_t *buf, ULONG cap, ULONG *pn, ULONG total) {
    if (buf == NULL && cap != 0)
        violate(api, "NULL array with a capacity");
    ULONG n = total < cap ? total : cap;
    for (ULONG i = 0; buf != NULL && i < cap; i++)
        buf[i] = 0xFFFFFFFFu;
    for (ULONG i = 0; buf != NULL && i < n; i++)
        buf[i] = 0x04000001u + i;
    if (pn != NULL)
        *pn = n;
    return n < total ? S_FALSE : S_OK;
}

static HRESULT f_field_props(void *self, mdFieldDef fd, mdTypeDef *cls, WCHAR *name, ULONG cap, ULONG *pch,
                             DWORD *attr, PCCOR_SIGNATURE *sig, ULONG *sl, DWORD *ctype, UVCP_CONSTANT *v, ULONG *cv) {
    (void)self; (void)fd;
    static const uint8_t field_sig[] = {0x06, 0x08};
    static const int32_t constant = 7;
    *cls = 0x02000002;
    *attr = 0x0040 | 0x0010; // literal, static
    *sig = field_sig;
    *sl = sizeof field_sig;
    *ctype = ELEMENT_TYPE_I4;
    *v = &constant;
    *cv = 0;
    return put_name("GetFieldProps", name, cap, pch);
}

static HRESULT f_method_props(void *self, mdMethodDef md, mdTypeDef *cls, WCHAR *name, ULONG cap, ULONG *pch, DWORD *attr,
                              PCCOR_SIGNATURE *sig, ULONG *sl, ULONG *rva, DWORD *impl) {
    (void)self; (void)md;
    static const uint8_t method_sig[] = {0x00, 0x00, 0x01};
    *cls = 0x02000002;
    *attr = 0;
    *sig = method_sig;
    *sl = sizeof method_sig;
    *rva = 0;
    *impl = 0;
    return put_name("GetMethodProps", name, cap, pch);
}

static HRESULT f_typedef_props(void *self, mdTypeDef td, WCHAR *name, ULONG cap, ULONG *pch, DWORD *flags, mdToken *ext) {
    (void)self; (void)td;
    *flags = 0;
    *ext = 0x01000001;
    return put_name("GetTypeDefProps", name, cap, pch);
}

static HRESULT f_typeref_props(void *self, mdTypeRef tr, mdToken *scope, WCHAR *name, ULONG cap, ULONG *pch) {
    (void)self; (void)tr;
    *scope = 0x23000001;
    return put_name("GetTypeRefProps", name, cap, pch);
}

static HRESULT f_memberref_props(void *self, mdMemberRef mr, mdToken *parent, WCHAR *name, ULONG cap, ULONG *pch,
                                 PCCOR_SIGNATURE *sig, ULONG *sl) {
    (void)self; (void)mr;
    static const uint8_t ref_sig[] = {0x00, 0x01, 0x01, 0x08};
    *parent = 0x01000001;
    *sig = ref_sig;
    *sl = sizeof ref_sig;
    return put_name("GetMemberRefProps", name, cap, pch);
}

static HRESULT f_param_props(void *self, mdParamDef pd, mdMethodDef *md, ULONG *seq, WCHAR *name, ULONG cap, ULONG *pch,
                             DWORD *attr, DWORD *ctype, UVCP_CONSTANT *v, ULONG *cv) {
    (void)self;
    *md = 0x06000001;
    *seq = pd & 0xFF;
    *attr = 0;
    *ctype = 0;
    *v = NULL;
    *cv = 0;
    return put_name("GetParamProps", name, cap, pch);
}

static HRESULT f_generic_param_props(void *self, mdGenericParam gp, ULONG *seq, DWORD *flags, mdToken *owner, DWORD *reserved,
                                     WCHAR *name, ULONG cap, ULONG *pch) {
    (void)self;
    *seq = gp & 0xFF;
    *flags = 0;
    *owner = 0x02000002;
    *reserved = 0;
    return put_name("GetGenericParamProps", name, cap, pch);
}

// Enumerators: the handle counts what was already handed out.
static HRESULT f_enum(const char *api, HCORENUM *e, uint32_t *toks, ULONG cap, ULONG *pn) {
    *e = (HCORENUM)(uintptr_t)1;
    return put_tokens(api, toks, cap, pn, g_nfields);
}
static HRESULT f_enum_fields(void *self, HCORENUM *e, mdTypeDef td, mdFieldDef *t, ULONG cap, ULONG *pn) {
    (void)self; (void)td;
    return f_enum("EnumFields", e, t, cap, pn);
}
static HRESULT f_enum_params(void *self, HCORENUM *e, mdMethodDef md, mdParamDef *t, ULONG cap, ULONG *pn) {
    (void)self; (void)md;
    return f_enum("EnumParams", e, t, cap, pn);
}
static HRESULT f_enum_methods_named(void *self, HCORENUM *e, mdTypeDef td, const WCHAR *name, mdMethodDef *t, ULONG cap,
                                    ULONG *pn) {
    (void)self; (void)td; (void)name;
    return f_enum("EnumMethodsWithName", e, t, cap, pn);
}
static HRESULT f_enum_generic_params(void *self, HCORENUM *e, mdToken tk, mdGenericParam *t, ULONG cap, ULONG *pn) {
    (void)self; (void)tk;
    return f_enum("EnumGenericParams", e, t, cap, pn);
}
static HRESULT f_count_enum(void *self, HCORENUM e, ULONG *n) {
    (void)self; (void)e;
    *n = g_nfields;
    return S_OK;
}
static void f_close_enum(void *self, HCORENUM e) { (void)self; (void)e; }

static HRESULT f_module_info(void *self, ModuleID mid, LPCBYTE *base, ULONG cap, ULONG *pch, WCHAR *name, AssemblyID *aid) {
    (void)self; (void)mid;
    *base = NULL;
    *aid = 0xA5;
    return put_name("GetModuleInfo", name, cap, pch);
}

static HRESULT f_assembly_info(void *self, AssemblyID aid, ULONG cap, ULONG *pch, WCHAR *name, AppDomainID *ad, ModuleID *mid) {
    (void)self; (void)aid;
    *ad = 1;
    *mid = 1;
    return put_name("GetAssemblyInfo", name, cap, pch);
}

// Layouts and type arguments follow the runtime's documented behaviour:
// the count of all entries comes back, at most the capacity is filled.
static HRESULT f_class_layout(void *self, ClassID cid, COR_FIELD_OFFSET *f, ULONG cap, ULONG *pn, ULONG *size) {
    (void)self; (void)cid;
    if (f == NULL && cap != 0)
        violate("GetClassLayout", "NULL array with a capacity");
    for (ULONG i = 0; f != NULL && i < cap; i++)
        f[i].ridOfField = 0xFFFFFFFFu, f[i].ulOffset = 0xFFFFFFFFu;
    for (ULONG i = 0; f != NULL && i < cap && i < g_nfields; i++)
        f[i].ridOfField = 0x04000001u + i, f[i].ulOffset = 8 + 4 * i;
    *pn = g_nfields;
    *size = 8 + 4 * g_nfields;
    return S_OK;
}

static HRESULT type_args(const char *api, ULONG32 cap, ULONG32 *pn, ClassID *args) {
    if (args == NULL && cap != 0)
        violate(api, "NULL array with a capacity");
    for (ULONG32 i = 0; args != NULL && i < cap; i++)
        args[i] = (ClassID)-1;
    for (ULONG32 i = 0; args != NULL && i < cap && i < g_ntype_args; i++)
        args[i] = 0x1000 + i;
    *pn = g_ntype_args;
    return S_OK;
}

static HRESULT f_function_info2(void *self, FunctionID fid, COR_PRF_FRAME_INFO frame, ClassID *cls, ModuleID *mod, mdToken *tok,
                                ULONG32 cap, ULONG32 *pn, ClassID *args) {
    (void)self; (void)fid; (void)frame;
    *cls = 0x2000;
    *mod = 0x3000;
    *tok = 0x06000001;
    return type_args("GetFunctionInfo2", cap, pn, args);
}

static HRESULT f_class_id_info2(void *self, ClassID cid, ModuleID *mod, mdTypeDef *td, ClassID *parent, ULONG32 cap, ULONG32 *pn,
                                ClassID *args) {
    (void)self; (void)cid;
    *mod = 0x3000;
    *td = 0x02000002;
    *parent = 0;
    return type_args("GetClassIDInfo2", cap, pn, args);
}

// The one address the fake knows as compiled code, and its function.
static uintptr_t g_code_ip, g_code_fid;

static HRESULT f_function_from_ip(void *self, LPCBYTE ip, FunctionID *fid) {
    (void)self;
    if (g_code_ip == 0 || (uintptr_t)ip != g_code_ip)
        return E_FAIL;
    *fid = g_code_fid;
    return S_OK;
}

void fake_set_code(uintptr_t ip, uintptr_t fid) {
    g_code_ip = ip;
    g_code_fid = fid;
}

void fake_reset(const char *name, uint32_t nfields, uint32_t ntype_args) {
    snprintf(g_name, sizeof g_name, "%s", name);
    g_nfields = nfields;
    g_ntype_args = ntype_args;
    g_violations = 0;
    g_last[0] = 0;
    g_md_vtbl.GetFieldProps = f_field_props;
    g_md_vtbl.GetMethodProps = f_method_props;
    g_md_vtbl.GetTypeDefProps = f_typedef_props;
    g_md_vtbl.GetTypeRefProps = f_typeref_props;
    g_md_vtbl.GetMemberRefProps = f_memberref_props;
    g_md_vtbl.GetParamProps = f_param_props;
    g_md_vtbl.GetGenericParamProps = f_generic_param_props;
    g_md_vtbl.EnumFields = f_enum_fields;
    g_md_vtbl.EnumParams = f_enum_params;
    g_md_vtbl.EnumMethodsWithName = f_enum_methods_named;
    g_md_vtbl.EnumGenericParams = f_enum_generic_params;
    g_md_vtbl.CountEnum = f_count_enum;
    g_md_vtbl.CloseEnum = f_close_enum;
    g_info_vtbl.GetModuleInfo = f_module_info;
    g_info_vtbl.GetAssemblyInfo = f_assembly_info;
    g_info_vtbl.GetClassLayout = f_class_layout;
    g_info_vtbl.GetFunctionInfo2 = f_function_info2;
    g_info_vtbl.GetFunctionFromIP = f_function_from_ip;
    g_info_vtbl.GetClassIDInfo2 = f_class_id_info2;
    g_info_vtbl.IsArrayClass = f_is_array_class;
}
