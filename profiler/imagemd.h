// imagemd.h: a module's metadata tables read straight from its loaded image
// (imagemd.c explains why).
#ifndef CLROTEL_IMAGEMD_H
#define CLROTEL_IMAGEMD_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const uint8_t *base;
    size_t size;    // bytes readable from base
    int flat;       // file layout (RVAs go through the section table)
    const uint8_t *tables, *strings;
    uint32_t strings_size;
    uint32_t rows[9];           // Module .. Param (tables 0x00-0x08)
    uint32_t typedef_off, typedef_row; // offset of the TypeDef table in tables, its row size
    uint32_t method_off, method_row;
    uint32_t str_idx, field_idx, method_idx, tdor_idx; // index sizes in TypeDef rows
    uint32_t tables_size;
} md_image;

// Opens the metadata of a PE image at base (size bytes readable; flat: laid
// out as in the file, else mapped at its RVAs). 0 on success, -1 when the
// image is not one this reader handles (the caller falls back to the
// runtime's importer).
int md_image_open(md_image *m, const uint8_t *base, size_t size, int flat);

// The same for an image the runtime loaded (GetModuleInfo2's base address
// and COR_PRF_MODULE_FLAT_LAYOUT), its extent read from its headers.
int md_image_open_loaded(md_image *m, const uint8_t *base, int flat);

// The top-level TypeDef token with this namespace and name ("`1" included),
// or 0.
uint32_t md_image_find_type(const md_image *m, const char *ns, const char *name);

// The MethodDef tokens of type td named name: stores at most max of them in
// out and returns how many there are.
int md_image_methods_named(const md_image *m, uint32_t td, const char *name, uint32_t *out, int max);

// Whether the #Strings heap holds name (as an entry or an entry's tail):
// 0 says no type, method, field or namespace of the module is called that;
// 1 may be a false alarm. 1 when the image has no heap this reader found.
int md_image_names(const md_image *m, const char *name);

// The name of MethodDef tok (NULL if out of range): for tests.
const char *md_image_method_name(const md_image *m, uint32_t tok);

#endif
