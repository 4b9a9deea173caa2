// imagemd.c: reading a loaded module's metadata tables (ECMA-335 II.24)
// straight from its image, read-only, without the runtime's importer.
//
// Why: GetModuleMetaData hands out the public IMetaDataImport, and the
// runtime makes one by converting the module's internal metadata to its
// read-write form first (PEAssembly::OpenImporter calls
// ConvertMDInternalToReadWrite, .NET Core 3.1 and 8 alike). Every metadata
// read the runtime makes on that module afterwards goes through the slower
// read-write reader. Done on CoreLib at its load (to find the task
// builders' SetResult and SetException, async.c), that cost a hello world
// about 3-4 ms of CPU, a tenth of its run, whether anything was traced or
// not. The few names async.c needs from CoreLib are found here instead.
//
// Only what that needs is read: the #~ tables up to MethodDef, the #Strings
// heap. Everything is bounds-checked against the image's extent; anything
// unexpected (an uncompressed #- stream, pointer tables) makes
// md_image_open fail, and the caller falls back to the importer.
#include <string.h>

#include "imagemd.h"

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

// A pointer to n bytes at RVA rva, or NULL when they are not all inside the
// image (and, flat, inside one section's raw data).
static const uint8_t *at_rva(const md_image *m, const uint8_t *sections, uint32_t nsections, uint32_t rva, uint32_t n) {
    uint64_t off = rva;
    if (m->flat) {
        int found = 0;
        for (uint32_t i = 0; i < nsections; i++) {
            const uint8_t *s = sections + 40 * i;
            uint32_t va = rd32(s + 12), raw = rd32(s + 16), ptr = rd32(s + 20);
            if (rva >= va && (uint64_t)rva + n <= (uint64_t)va + raw) {
                off = (uint64_t)ptr + (rva - va);
                found = 1;
                break;
            }
        }
        if (!found)
            return NULL;
    }
    if (off + n > m->size)
        return NULL;
    return m->base + off;
}

static uint32_t idx_size(uint32_t rows) { return rows < 0x10000 ? 2 : 4; }

// A coded index over tables with tag bits: 2 bytes while every table's rows
// fit in the bits left.
static uint32_t coded_size(uint32_t max_rows, int tag_bits) { return max_rows < (1u << (16 - tag_bits)) ? 2 : 4; }

static uint32_t max3(uint32_t a, uint32_t b, uint32_t c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }

int md_image_open(md_image *m, const uint8_t *base, size_t size, int flat) {
    memset(m, 0, sizeof *m);
    if (base == NULL || size < 0x40)
        return -1;
    m->base = base;
    m->size = size;
    m->flat = flat;
    if (base[0] != 'M' || base[1] != 'Z')
        return -1;
    uint32_t pe = rd32(base + 0x3c);
    if ((uint64_t)pe + 24 > size || memcmp(base + pe, "PE\0\0", 4) != 0)
        return -1;
    const uint8_t *coff = base + pe + 4;
    uint32_t nsections = rd16(coff + 2), opt_size = rd16(coff + 16);
    const uint8_t *opt = coff + 20;
    if ((uint64_t)pe + 24 + opt_size + 40ull * nsections > size || opt_size < 96)
        return -1;
    uint32_t magic = rd16(opt), dirs = magic == 0x20b ? 112 : magic == 0x10b ? 96 : 0;
    if (dirs == 0 || opt_size < dirs + 15 * 8 || rd32(opt + dirs - 4) < 15)
        return -1;
    const uint8_t *sections = opt + opt_size;
    uint32_t cli_rva = rd32(opt + dirs + 14 * 8);
    const uint8_t *cli = at_rva(m, sections, nsections, cli_rva, 16);
    if (cli == NULL)
        return -1;
    uint32_t md_rva = rd32(cli + 8), md_size = rd32(cli + 12);
    const uint8_t *root = at_rva(m, sections, nsections, md_rva, md_size);
    if (root == NULL || md_size < 32 || rd32(root) != 0x424A5342)
        return -1;
    uint32_t vlen = rd32(root + 12);
    if (vlen > md_size - 20)
        return -1;
    const uint8_t *p = root + 16 + vlen, *end = root + md_size;
    uint32_t nstreams = rd16(p + 2);
    p += 4;
    const uint8_t *tables = NULL;
    uint32_t tables_size = 0;
    for (uint32_t i = 0; i < nstreams; i++) {
        if (p + 9 > end)
            return -1;
        uint32_t off = rd32(p), sz = rd32(p + 4);
        const char *name = (const char *)p + 8;
        size_t nl = strnlen(name, (size_t)(end - (p + 8)));
        if (p + 8 + nl >= end || (uint64_t)off + sz > md_size)
            return -1;
        if (strcmp(name, "#~") == 0) {
            tables = root + off;
            tables_size = sz;
        } else if (strcmp(name, "#Strings") == 0) {
            m->strings = root + off;
            m->strings_size = sz;
        } else if (strcmp(name, "#-") == 0) {
            return -1; // uncompressed (edit-and-continue) tables: not read here
        }
        p += 8 + ((nl + 4) & ~(size_t)3);
    }
    if (tables == NULL || m->strings == NULL || tables_size < 24)
        return -1;
    uint8_t heaps = tables[6];
    uint64_t valid = (uint64_t)rd32(tables + 8) | (uint64_t)rd32(tables + 12) << 32;
    uint32_t rows[64] = {0};
    const uint8_t *q = tables + 24;
    for (int t = 0; t < 64; t++) {
        if (!(valid >> t & 1))
            continue;
        if (q + 4 > tables + tables_size)
            return -1;
        rows[t] = rd32(q);
        q += 4;
    }
    if (heaps & 0x40) // extra data after the row counts
        q += 4;
    memcpy(m->rows, rows, sizeof m->rows);
    // Pointer tables (FieldPtr, MethodPtr) only come with #- streams; a
    // #~ stream with them is not read here.
    if (rows[0x03] != 0 || rows[0x05] != 0)
        return -1;
    uint32_t str = heaps & 0x01 ? 4 : 2, guid = heaps & 0x02 ? 4 : 2, blob = heaps & 0x04 ? 4 : 2;
    uint32_t module_row = 2 + str + 3 * guid;
    // TypeRef: ResolutionScope, a coded index over Module, ModuleRef
    // (0x1a), AssemblyRef (0x23) and TypeRef, then name and namespace.
    uint32_t typeref_row = coded_size(max3(rows[0x00], rows[0x1a], max3(rows[0x23], rows[0x01], 0)), 2) + 2 * str;
    // TypeDef's Extends: TypeDefOrRef over TypeDef, TypeRef, TypeSpec (0x1b).
    uint32_t typespec = rows[0x1b];
    m->str_idx = str;
    m->tdor_idx = coded_size(max3(m->rows[2], m->rows[1], typespec), 2);
    m->field_idx = idx_size(m->rows[4]);
    m->method_idx = idx_size(m->rows[6]);
    m->typedef_row = 4 + 2 * str + m->tdor_idx + m->field_idx + m->method_idx;
    uint32_t field_row = 2 + str + blob;
    m->method_row = 4 + 2 + 2 + str + blob + idx_size(m->rows[8]);
    uint64_t off = (uint64_t)(q - tables);
    off += (uint64_t)m->rows[0] * module_row + (uint64_t)m->rows[1] * typeref_row;
    m->typedef_off = (uint32_t)off;
    off += (uint64_t)m->rows[2] * m->typedef_row + (uint64_t)m->rows[4] * field_row;
    m->method_off = (uint32_t)off;
    off += (uint64_t)m->rows[6] * m->method_row;
    if (off > tables_size)
        return -1;
    m->tables = tables;
    m->tables_size = tables_size;
    return 0;
}

static uint32_t rd_idx(const uint8_t *p, uint32_t size) { return size == 4 ? rd32(p) : rd16(p); }

// The NUL-terminated string at index i of #Strings ("" when out of range
// or unterminated).
static const char *string_at(const md_image *m, uint32_t i) {
    if (i >= m->strings_size || memchr(m->strings + i, 0, m->strings_size - i) == NULL)
        return "";
    return (const char *)m->strings + i;
}

static const uint8_t *typedef_at(const md_image *m, uint32_t row) { // row: 1-based
    return m->tables + m->typedef_off + (uint64_t)(row - 1) * m->typedef_row;
}

uint32_t md_image_find_type(const md_image *m, const char *ns, const char *name) {
    if (m->tables == NULL)
        return 0;
    for (uint32_t row = 1; row <= m->rows[2]; row++) {
        const uint8_t *r = typedef_at(m, row);
        uint32_t flags = rd32(r);
        if ((flags & 0x7) >= 2) // nested: not found by its own name, as FindTypeDefByName
            continue;
        if (strcmp(string_at(m, rd_idx(r + 4, m->str_idx)), name) == 0 &&
            strcmp(string_at(m, rd_idx(r + 4 + m->str_idx, m->str_idx)), ns) == 0)
            return 0x02000000 | row;
    }
    return 0;
}

const char *md_image_method_name(const md_image *m, uint32_t tok) {
    uint32_t row = tok & 0xffffff;
    if (m->tables == NULL || tok >> 24 != 0x06 || row == 0 || row > m->rows[6])
        return NULL;
    const uint8_t *r = m->tables + m->method_off + (uint64_t)(row - 1) * m->method_row;
    return string_at(m, rd_idx(r + 8, m->str_idx));
}

int md_image_methods_named(const md_image *m, uint32_t td, const char *name, uint32_t *out, int max) {
    uint32_t row = td & 0xffffff;
    if (m->tables == NULL || td >> 24 != 0x02 || row == 0 || row > m->rows[2])
        return 0;
    uint32_t list_off = 4 + 2 * m->str_idx + m->tdor_idx + m->field_idx;
    uint32_t first = rd_idx(typedef_at(m, row) + list_off, m->method_idx);
    uint32_t last = row < m->rows[2] ? rd_idx(typedef_at(m, row + 1) + list_off, m->method_idx) : m->rows[6] + 1;
    if (last > m->rows[6] + 1)
        last = m->rows[6] + 1;
    int n = 0;
    for (uint32_t k = first; k != 0 && k < last; k++) {
        const char *mn = md_image_method_name(m, 0x06000000 | k);
        if (mn != NULL && strcmp(mn, name) == 0) {
            if (n < max)
                out[n] = 0x06000000 | k;
            n++;
        }
    }
    return n;
}

int md_image_names(const md_image *m, const char *name) {
    if (m->strings == NULL)
        return 1;
    // Heap entries end in NUL, and a compiler may store a name only as the
    // tail of a longer entry: name with its NUL anywhere in the heap.
    size_t n = strlen(name) + 1;
    const uint8_t *p = m->strings, *end = m->strings + m->strings_size;
    while ((size_t)(end - p) >= n) {
        const uint8_t *q = memchr(p, (unsigned char)name[0], (size_t)(end - p) - n + 1);
        if (q == NULL)
            return 0;
        if (memcmp(q, name, n) == 0)
            return 1;
        p = q + 1;
    }
    return 0;
}

int md_image_open_loaded(md_image *m, const uint8_t *base, int flat) {
    // The headers are in the first page of any image the runtime loaded.
    if (base == NULL || base[0] != 'M' || base[1] != 'Z')
        return -1;
    uint32_t pe = rd32(base + 0x3c);
    if (pe > 0x1000 - 24 - 64 || memcmp(base + pe, "PE\0\0", 4) != 0)
        return -1;
    const uint8_t *coff = base + pe + 4;
    uint32_t nsections = rd16(coff + 2), opt_size = rd16(coff + 16);
    const uint8_t *opt = coff + 20;
    if (opt_size < 64 || (uint64_t)pe + 24 + opt_size + 40ull * nsections > 0x1000)
        return -1;
    size_t size = rd32(opt + 56); // SizeOfImage: the mapped extent
    if (flat) {
        size = 0;
        for (uint32_t i = 0; i < nsections; i++) {
            const uint8_t *s = opt + opt_size + 40 * i;
            uint64_t end = (uint64_t)rd32(s + 20) + rd32(s + 16);
            if (end > size)
                size = (size_t)end;
        }
    }
    return md_image_open(m, base, size, flat);
}
