// clrinfo.h: flat wrappers over the runtime's info and metadata interfaces,
// for Go. Each returns 0 or a failed HRESULT. A name buffer may be NULL with
// a capacity of 0: only the length comes back.
#ifndef CLROTEL_CLRINFO_H
#define CLROTEL_CLRINFO_H

#include <stdint.h>

enum { CLR_MAX_TYPE_ARGS = 32 };
// More type arguments than CLR_MAX_TYPE_ARGS (or another count past a
// fixed buffer): reported as an error, never cut.
#define CLR_E_TOO_MANY ((int)0x8007007Au) // HRESULT_FROM_WIN32(ERROR_INSUFFICIENT_BUFFER)

typedef struct clr_function_desc {
    uintptr_t class_id;
    uintptr_t module_id;
    uint32_t token;
    uint32_t n_type_args;
    uintptr_t type_args[CLR_MAX_TYPE_ARGS];
} clr_function_desc;

typedef struct clr_class_desc {
    uintptr_t module_id;
    uintptr_t parent;
    uint32_t token;
    uint32_t n_type_args;
    uintptr_t type_args[CLR_MAX_TYPE_ARGS];
    // arrays
    uint32_t is_array;
    uint32_t elem_type;
    uintptr_t elem_class;
    uint32_t rank;
} clr_class_desc;

struct clr_runtime;
// The runtime the wrappers ask (Initialize, before Go can call them).
void clr_clrinfo_init(const struct clr_runtime *rt);

int clr_function_info(uintptr_t fid, clr_function_desc *out);
int clr_class_info(uintptr_t cid, clr_class_desc *out);
int clr_module_info(uintptr_t mid, uint16_t *path, uint32_t cap, uint32_t *len, uint16_t *asm_name, uint32_t asm_cap, uint32_t *asm_len);
void *clr_module_import(uintptr_t mid);

int md_method_props(void *imp, uint32_t md, uint32_t *owner, uint16_t *name, uint32_t cap, uint32_t *len,
                    uint32_t *attrs, const uint8_t **sig, uint32_t *sig_len);
int md_typedef_props(void *imp, uint32_t td, uint16_t *name, uint32_t cap, uint32_t *len, uint32_t *flags, uint32_t *extends);
int md_enclosing_class(void *imp, uint32_t td, uint32_t *enclosing);
int md_typeref_props(void *imp, uint32_t tr, uint32_t *scope, uint16_t *name, uint32_t cap, uint32_t *len);
int md_typespec(void *imp, uint32_t ts, const uint8_t **sig, uint32_t *len);
int md_memberref_props(void *imp, uint32_t mr, uint32_t *parent, uint16_t *name, uint32_t cap, uint32_t *len,
                       const uint8_t **sig, uint32_t *sig_len);
int md_methodspec_parent(void *imp, uint32_t ms, uint32_t *parent);
int md_find_method(void *imp, uint32_t td, const uint16_t *name, const uint8_t *sig, uint32_t sig_len, uint32_t *md);
int clr_il_body(uintptr_t mid, uint32_t md, const uint8_t **body, uint32_t *len);
int md_params(void *imp, uint32_t md, uint32_t *tokens, uint32_t cap, uint32_t *count, uint32_t *total);
int md_methods_named(void *imp, uint32_t td, const uint16_t *name, uint32_t *tokens, uint32_t cap, uint32_t *count,
                     uint32_t *total);
int md_param_props(void *imp, uint32_t pd, uint32_t *seq, uint16_t *name, uint32_t cap, uint32_t *len, uint32_t *attrs);
int md_generic_params(void *imp, uint32_t owner, uint32_t *tokens, uint32_t cap, uint32_t *count, uint32_t *total);
int md_generic_param_props(void *imp, uint32_t gp, uint32_t *seq, uint16_t *name, uint32_t cap, uint32_t *len);


// One instance field of a class layout: the same shape as COR_FIELD_OFFSET.
typedef struct clr_field_offset {
    uint32_t token;
    uint32_t offset;
} clr_field_offset;

int clr_class_layout(uintptr_t cid, clr_field_offset *fields, uint32_t cap, uint32_t *count, uint32_t *size);
int clr_box_offset(uintptr_t cid, uint32_t *offset);
int clr_string_layout(uint32_t *len_offset, uint32_t *buf_offset);
int clr_class_from_token(uintptr_t mid, uint32_t td, uintptr_t *cid);
int md_field_props(void *imp, uint32_t fd, uint32_t *owner, uint16_t *name, uint32_t cap, uint32_t *len,
                   uint32_t *attrs, const uint8_t **sig, uint32_t *sig_len);
int md_enum_fields(void *imp, uint32_t td, uint32_t *tokens, uint32_t cap, uint32_t *count, uint32_t *total);
int md_field_constant(void *imp, uint32_t fd, uint64_t *value, uint32_t *attrs);
int md_find_typedef(void *imp, const uint16_t *name, uint32_t enclosing, uint32_t *td);
void clr_module_loaded(uintptr_t mid);
void clr_module_unloaded(uintptr_t mid);
uint32_t clr_modules(uintptr_t *out, uint32_t cap);

int clr_runtime_version(uint16_t *major, uint16_t *minor);

int clr_class_from_token_args(uintptr_t mid, uint32_t td, uint32_t n, uintptr_t *args, uintptr_t *cid);

// The method whose code a delegate's method pointer leads to, following
// the runtime's precode stubs (clrinfo.c); 0, or -1 when none is known.
int clr_code_function(uintptr_t ip, uintptr_t *fid);

#endif
