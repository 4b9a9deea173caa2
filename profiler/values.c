// values.c: reads argument, `this` and return values on the CLR thread, while
// the call is in progress, into the record's value stream.
//
// Runs inside the Enter/Leave hooks: no locks, no allocation, bounded work.
// It only follows plans Go built (per function and per ClassID); a class
// without a plan is written as VT_NOPLAN and Go builds one for next time.
// Every read of managed memory goes through clr_safe_copy, so a torn or
// hostile pointer yields VT_UNREADABLE instead of a crash. The GC cannot run
// while the thread is in the hook (it is in cooperative mode), so objects
// neither move nor die under the reader.
#include <stdlib.h>
#include <string.h>

#include "profiler.h"
#include "values.h"
#include "eltargs.h"
#include "safecopy.h"
#include "lftable.h"

static clr_value_limits g_lim;

static clr_runtime g_rt;

// ---- the ClassID -> plan table: Go writes, C reads ----------------------

static _Atomic uint64_t g_plans_full;
static lftable g_table = {NULL, 0, 64, &g_plans_full};
static _Atomic uint32_t g_plans;

void clr_values_init(const clr_runtime *rt, const clr_value_limits *lim, uint32_t table_size) {
    g_rt = *rt;
    g_lim = *lim;
    if (g_lim.max_bytes < 64)
        g_lim.max_bytes = 64;
    // table_size is a power of two; allocated once at Initialize.
    g_table.slot = calloc(table_size, sizeof(lft_slot));
    g_table.mask = g_table.slot ? table_size - 1 : 0;
    g_table.probes = table_size < 64 ? table_size : 64;
}

// Called by Go (one writer at a time). Returns 0, or -1 when the table is full.
int clr_plan_publish(const clr_class_plan *p) {
    if (lft_put(&g_table, p->class_id, (uintptr_t)p) < 0)
        return -1;
    atomic_fetch_add(&g_plans, 1);
    return 0;
}

const clr_class_plan *clr_plan_lookup(uintptr_t class_id) {
    return (const clr_class_plan *)lft_get(&g_table, class_id);
}

uint32_t clr_plan_count(void) { return atomic_load(&g_plans); }

// ---- the stream writer ---------------------------------------------------

enum { MAX_SEEN = 32 };

typedef struct {
    uint8_t *p, *end; // end keeps one byte back for VT_TRUNC
    int full;
    uint32_t depth;
    int64_t bound; // elements the next array may show (-1: all), set by a bounded field
    int bound_text; // ... and that array holds a text's characters (BOUND_TEXT)
    // The next object is a plain field of an object shown field by field
    // (VIEW_PLAIN, VIEW_TERSE): a VIEW_TERSE one may be left unread.
    int plain_field;
    // From this depth on, collections show only their count (package values
    // renders them as [n]): their elements are not copied. Lower for `this`.
    uint32_t compact_depth;
    int nseen;
    uintptr_t seen[MAX_SEEN];
    // The call being read: what VK_TYPEARG asks the runtime about.
    uintptr_t fid;
    COR_PRF_FRAME_INFO frame;
} writer;

static int room(writer *w, uint32_t n) {
    if (w->full)
        return 0;
    if ((uintptr_t)(w->end - w->p) < n) {
        *w->p++ = VT_TRUNC;
        w->full = 1;
        return 0;
    }
    return 1;
}

static void put(writer *w, const void *src, uint32_t n) {
    memcpy(w->p, src, n);
    w->p += n;
}

static void tag(writer *w, uint8_t t) {
    if (room(w, 1))
        *w->p++ = t;
}

static void tag_u64(writer *w, uint8_t t, uint64_t v) {
    if (room(w, 9)) {
        *w->p++ = t;
        put(w, &v, 8);
    }
}

static uint32_t prim_size(uint8_t kind) {
    switch (kind) {
    case VK_BOOL: case VK_I1: case VK_U1: return 1;
    case VK_CHAR: case VK_I2: case VK_U2: return 2;
    case VK_I4: case VK_U4: case VK_R4: return 4;
    case VK_I8: case VK_U8: case VK_R8: case VK_I: case VK_U: return 8;
    }
    return 0;
}

static void write_value(writer *w, const clr_value_plan *vp, uintptr_t addr);
static void write_walk(writer *w, const clr_value_plan *f, uintptr_t owner);

static void write_struct(writer *w, const clr_class_plan *p, uintptr_t addr, uint8_t t) {
    if (p == NULL) {
        tag(w, VT_SKIP);
        return;
    }
    if (w->depth >= g_lim.max_depth) {
        tag_u64(w, VT_DEPTH, p->class_id);
        return;
    }
    uint16_t n = p->nfields;
    if (n > g_lim.max_fields)
        n = (uint16_t)g_lim.max_fields;
    if (!room(w, 11))
        return;
    *w->p++ = t;
    uint64_t cls = p->class_id;
    put(w, &cls, 8);
    put(w, &n, 2);
    w->depth++;
    for (uint16_t i = 0; i < n && !w->full; i++) {
        const clr_value_plan *f = &p->fields[i];
        if (f->bounded == BOUND_TREE || f->bounded == BOUND_CHAINS) {
            write_walk(w, f, addr);
            continue;
        }
        if (f->bounded == BOUND_INNER) {
            w->depth--;
            write_value(w, f, addr + f->offset);
            w->depth++;
            continue;
        }
        // A collection's array used up to a count field (List<T>._items up
        // to _size): the array shows only that many elements.
        int32_t count;
        if (f->bounded && clr_safe_copy(&count, (void *)(addr + f->bound_offset), 4) == 0)
            w->bound = count < 0 || (f->bounded == BOUND_COLLECTION && w->depth >= w->compact_depth) ? 0 : count;
        w->bound_text = f->bounded == BOUND_TEXT;
        w->plain_field = t == VT_OBJECT && !f->bounded && p->view != VIEW_RENDERED;
        write_value(w, f, addr + f->offset);
        w->bound = -1;
        w->bound_text = 0;
        w->plain_field = 0;
    }
    w->depth--;
}

static void write_string(writer *w, uintptr_t obj) {
    uint32_t len;
    if (clr_safe_copy(&len, (void *)(obj + g_lim.string_len_offset), 4) != 0) {
        tag(w, VT_UNREADABLE);
        return;
    }
    if (!room(w, 9))
        return;
    uint32_t n = len < g_lim.max_chars ? len : g_lim.max_chars;
    uint32_t fit = (uint32_t)((w->end - w->p) - 9) / 2;
    if (n > fit)
        n = fit;
    uint8_t *start = w->p;
    *w->p++ = VT_STRING;
    put(w, &len, 4);
    put(w, &n, 4);
    if (clr_safe_copy(w->p, (void *)(obj + g_lim.string_buf_offset), (uintptr_t)n * 2) != 0) {
        w->p = start;
        tag(w, VT_UNREADABLE);
        return;
    }
    w->p += (uintptr_t)n * 2;
}

// ---- profiling-API calls on what the object graph says ------------------
//
// Each runs guarded (guard.h): a forged reference can hand the runtime a
// garbage type pointer.

static inline HRESULT class_from_object(uintptr_t obj, ClassID *cls) { return clr_guarded_class_from_object(&g_rt, obj, cls); }

static inline HRESULT array_object_info(uintptr_t obj, ULONG32 rank, ULONG32 *dims, int *lbounds, BYTE **data) {
    return clr_guarded_array_object_info(&g_rt, obj, rank, dims, lbounds, data);
}

static inline HRESULT is_array_class(ClassID cls, CorElementType *et, ClassID *ec, ULONG *rank) {
    return clr_guarded_is_array_class(&g_rt, cls, et, ec, rank);
}

static inline HRESULT class_module(ClassID cls, ModuleID *mod) {
    mdTypeDef td;
    return clr_guarded_class_id_info(&g_rt, cls, mod, &td);
}

// A class met without a plan is handed to Go only when the runtime places
// it (an array: its innermost element class) in a module it reported
// loading: what a garbage type pointer yields stops here.
static int class_plausible(ClassID cls) {
    for (int depth = 0; depth < 8; depth++) {
        CorElementType et = 0;
        ClassID ec = 0;
        ULONG rank = 0;
        if (is_array_class(cls, &et, &ec, &rank) == S_OK) {
            if (ec == 0)
                return 1; // an array of primitives
            cls = ec;
            continue;
        }
        ModuleID mod = 0;
        return class_module(cls, &mod) >= 0 && mod != 0 && clr_module_known(mod);
    }
    return 0;
}

static void write_array(writer *w, const clr_class_plan *p, uintptr_t obj, int64_t bound, int text) {
    enum { MAX_RANK = 32 };
    ULONG32 rank = p->rank ? p->rank : 1;
    if (rank > MAX_RANK) {
        tag(w, VT_UNREADABLE);
        return;
    }
    // A collection's own array is read even at the depth limit: what it
    // holds then stops there (VT_DEPTH), but its count and primitives show.
    if (w->depth >= g_lim.max_depth && bound < 0) {
        tag_u64(w, VT_DEPTH, p->class_id);
        return;
    }
    ULONG32 dims[MAX_RANK];
    int lbounds[MAX_RANK];
    BYTE *data = NULL;
    if (array_object_info(obj, rank, dims, lbounds, &data) < 0 || data == NULL) {
        tag(w, VT_UNREADABLE);
        return;
    }
    uint64_t total = 1;
    for (ULONG32 i = 0; i < rank; i++)
        total *= dims[i];
    // A text's characters (a StringBuilder's chunks) are bounded like a string's.
    uint32_t lim = text && p->elem_kind == VK_CHAR ? g_lim.max_chars : g_lim.max_elems;
    uint32_t n = total < lim ? (uint32_t)total : lim;
    if (bound >= 0 && (uint64_t)bound < n)
        n = (uint32_t)bound;
    if (!room(w, 1 + 8 + 1 + 4 * rank + 4))
        return;
    *w->p++ = VT_ARRAY;
    uint64_t cls = p->class_id;
    put(w, &cls, 8);
    uint8_t r = (uint8_t)rank;
    put(w, &r, 1);
    put(w, dims, 4 * rank);
    put(w, &n, 4);
    clr_value_plan ep = {.kind = p->elem_kind, .cls = p->elem};
    // A collection's own array (bounded) is not a level of nesting the
    // user sees: List<Item>'s items are as deep as the list's fields.
    uint32_t step = bound >= 0 ? 0 : 1;
    w->depth += step;
    for (uint32_t i = 0; i < n && !w->full; i++)
        write_value(w, &ep, (uintptr_t)data + (uintptr_t)i * p->elem_size);
    w->depth -= step;
}

static uint8_t kind_of_elem(CorElementType t) {
    switch (t) {
    case ELEMENT_TYPE_BOOLEAN: return VK_BOOL;
    case ELEMENT_TYPE_CHAR: return VK_CHAR;
    case ELEMENT_TYPE_I1: return VK_I1;
    case ELEMENT_TYPE_U1: return VK_U1;
    case ELEMENT_TYPE_I2: return VK_I2;
    case ELEMENT_TYPE_U2: return VK_U2;
    case ELEMENT_TYPE_I4: return VK_I4;
    case ELEMENT_TYPE_U4: return VK_U4;
    case ELEMENT_TYPE_I8: return VK_I8;
    case ELEMENT_TYPE_U8: return VK_U8;
    case ELEMENT_TYPE_R4: return VK_R4;
    case ELEMENT_TYPE_R8: return VK_R8;
    case ELEMENT_TYPE_I: return VK_I;
    case ELEMENT_TYPE_U: return VK_U;
    case ELEMENT_TYPE_STRING: case ELEMENT_TYPE_CLASS: case ELEMENT_TYPE_OBJECT:
    case ELEMENT_TYPE_SZARRAY: case ELEMENT_TYPE_ARRAY: case ELEMENT_TYPE_GENERICINST:
        return VK_REF;
    }
    return VK_SKIP;
}

// An array whose class has no plan yet can still be read when its elements
// are primitives, references, or value types with a plan: the runtime says
// what its elements are (IsArrayClass). Go is not needed for those.
static int implicit_array_plan(ClassID cls, clr_class_plan *out) {
    CorElementType et = 0;
    ClassID ec = 0;
    ULONG rank = 0;
    if (is_array_class(cls, &et, &ec, &rank) != S_OK)
        return 0;
    memset(out, 0, sizeof *out);
    out->class_id = cls;
    out->shape = SHAPE_ARRAY;
    out->rank = rank ? rank : 1;
    out->elem_kind = kind_of_elem(et);
    if (out->elem_kind == VK_REF) {
        out->elem_size = 8;
    } else if (out->elem_kind != VK_SKIP) {
        out->elem_size = prim_size(out->elem_kind);
    } else if (et == ELEMENT_TYPE_VALUETYPE) {
        const clr_class_plan *box = clr_plan_lookup(ec);
        if (box == NULL || box->shape != SHAPE_BOXED || box->elem == NULL || box->elem->elem_size == 0)
            return 0;
        out->elem_kind = VK_STRUCT;
        out->elem = box->elem;
        out->elem_size = box->elem->elem_size;
    } else {
        return 0;
    }
    return 1;
}

static void write_object(writer *w, uintptr_t obj) {
    int64_t bound = w->bound; // for this object only, not what it holds
    int text = w->bound_text;
    int plain_field = w->plain_field;
    w->bound = -1;
    w->bound_text = 0;
    w->plain_field = 0;
    if (obj == 0) {
        tag(w, VT_NULL);
        return;
    }
    for (int i = 0; i < w->nseen; i++) {
        if (w->seen[i] == obj) {
            if (room(w, 2)) {
                *w->p++ = VT_CYCLE;
                *w->p++ = (uint8_t)i;
            }
            return;
        }
    }
    // The object and its MethodTable must be readable before the runtime
    // is asked about it.
    uintptr_t mt = 0, probe;
    if (clr_safe_copy(&mt, (void *)obj, 8) != 0 || mt == 0 || clr_safe_copy(&probe, (void *)mt, 8) != 0) {
        tag(w, VT_UNREADABLE);
        return;
    }
    // An object's type pointer is its ClassID, except for arrays on some
    // runtimes: a type pointer with a plan needs no runtime call.
    ClassID cls = mt;
    const clr_class_plan *p = clr_plan_lookup(mt);
    if (p == NULL) {
        if (class_from_object(obj, &cls) < 0 || cls == 0) {
            tag(w, VT_UNREADABLE);
            return;
        }
        p = clr_plan_lookup(cls);
    }
    clr_class_plan implicit;
    if (p == NULL && implicit_array_plan(cls, &implicit))
        p = &implicit;
    if (p == NULL) {
        if (!class_plausible(cls)) {
            tag(w, VT_UNREADABLE);
            return;
        }
        tag_u64(w, VT_NOPLAN, cls);
        return;
    }
    switch (p->shape) {
    case SHAPE_STRING:
        write_string(w, obj);
        return;
    case SHAPE_ARRAY:
        if (w->nseen < MAX_SEEN)
            w->seen[w->nseen++] = obj;
        write_array(w, p, obj, bound, text);
        return;
    case SHAPE_BOXED:
        if (room(w, 9)) {
            *w->p++ = VT_BOXED;
            uint64_t c = cls;
            put(w, &c, 8);
            write_struct(w, p->elem, obj + p->box_offset, VT_STRUCT);
        }
        return;
    default:
        if (w->nseen < MAX_SEEN)
            w->seen[w->nseen++] = obj;
        // Package values shows it as its type name only (a framework object
        // nested in the slot's value): its fields are not read.
        if (plain_field && p->view == VIEW_TERSE) {
            tag_u64(w, VT_DEPTH, p->class_id);
            return;
        }
        write_struct(w, p, obj, VT_OBJECT);
    }
}

// ---- collections of nodes: trees and hash chains (BOUND_TREE, BOUND_CHAINS)

enum { TREE_STACK = 64, CHUNK = 32, CHAIN_SCAN_PER_ELEM = 16 };

// The plan of a walked collection's node obj (its type pointer in *mt), or
// NULL with what the stream gets instead written: a class without a plan
// yet is handed to Go (VT_NOPLAN) as an object's is.
static const clr_class_plan *node_plan(writer *w, uintptr_t obj, uintptr_t *mt) {
    uintptr_t probe;
    if (clr_safe_copy(mt, (void *)obj, 8) != 0 || *mt == 0 || clr_safe_copy(&probe, (void *)*mt, 8) != 0) {
        tag(w, VT_UNREADABLE);
        return NULL;
    }
    const clr_class_plan *p = clr_plan_lookup(*mt);
    if (p == NULL) {
        if (class_plausible(*mt))
            tag_u64(w, VT_NOPLAN, *mt);
        else
            tag(w, VT_UNREADABLE);
    }
    return p;
}

// Starts a walk's VT_ARRAY; its class, count and copied elements are set
// by seq_end. Returns where they go, or NULL when out of room.
static uint8_t *seq_begin(writer *w) {
    if (!room(w, 1 + 8 + 1 + 4 + 4))
        return NULL;
    uint8_t *hdr = w->p;
    *w->p++ = VT_ARRAY;
    w->p += 8; // class
    *w->p++ = 1; // rank
    w->p += 8;   // dims[0], copied
    memset(hdr + 1, 0, 8);
    memset(hdr + 10, 0, 8);
    return hdr;
}

static void seq_end(uint8_t *hdr, uint64_t cls, uint32_t total, uint32_t copied) {
    memcpy(hdr + 1, &cls, 8);
    memcpy(hdr + 10, &total, 4);
    memcpy(hdr + 14, &copied, 4);
}

// A node: VT_OBJECT with its fields, the links as VT_SKIP. A tree's node
// is no level the user sees (its item is: a KeyValuePair, say); a hash
// chain's node, which holds a key and a value, is one, as a Dictionary's
// entry is (level 1): the values show as deep in both.
static void write_node(writer *w, const clr_class_plan *np, uintptr_t obj, uint32_t level) {
    uint16_t n = np->nfields;
    if (n > g_lim.max_fields)
        n = (uint16_t)g_lim.max_fields;
    if (!room(w, 11))
        return;
    *w->p++ = VT_OBJECT;
    uint64_t cls = np->class_id;
    put(w, &cls, 8);
    put(w, &n, 2);
    w->depth += level;
    for (uint16_t i = 0; i < n && !w->full; i++) {
        if (i + 1 == np->link[0] || i + 1 == np->link[1])
            tag(w, VT_SKIP);
        else
            write_value(w, &np->fields[i], obj + np->fields[i].offset);
    }
    w->depth -= level;
}

// Reads the node reference at addr; 0 for none (a null link, or an empty
// sentinel node: count 0), -1 when unreadable or not a node of class mt.
static int next_node(const clr_class_plan *np, uintptr_t mt, uintptr_t addr, uintptr_t *node) {
    uintptr_t m = 0;
    if (clr_safe_copy(node, (void *)addr, 8) != 0)
        return -1;
    if (*node == 0)
        return 0;
    if (clr_safe_copy(&m, (void *)*node, 8) != 0 || m != mt)
        return -1;
    if (np->node_count) {
        int32_t c;
        if (clr_safe_copy(&c, (void *)(*node + np->fields[np->node_count - 1].offset), 4) != 0)
            return -1;
        if (c == 0)
            *node = 0;
    }
    return 0;
}

// In-order walk of a binary tree from root, at most max_elems nodes; the
// explicit stack bounds the height read (a red-black or AVL tree of 2^31
// nodes is lower than 64).
static void write_tree(writer *w, uintptr_t root, int64_t count, int compact) {
    uintptr_t mt = 0;
    const clr_class_plan *np = node_plan(w, root, &mt);
    if (np == NULL)
        return;
    if (np->link[0] == 0 || np->link[1] == 0) {
        write_object(w, root); // not a node class known to link
        return;
    }
    uint32_t loff = np->fields[np->link[0] - 1].offset, roff = np->fields[np->link[1] - 1].offset;
    int64_t total = count;
    if (np->node_count) {
        int32_t c = -1;
        clr_safe_copy(&c, (void *)(root + np->fields[np->node_count - 1].offset), 4);
        if (total < 0 && c >= 0)
            total = c;
        if (c == 0)
            root = 0; // an empty sentinel
    }
    uint8_t *hdr = seq_begin(w);
    if (hdr == NULL)
        return;
    uint32_t n = 0;
    int done = !compact;
    if (!compact) {
        uintptr_t stack[TREE_STACK];
        int sp = 0;
        uintptr_t cur = root;
        for (;;) {
            while (cur != 0) {
                if (sp == TREE_STACK) {
                    done = 0;
                    goto out;
                }
                stack[sp++] = cur;
                if (next_node(np, mt, cur + loff, &cur) != 0) {
                    done = 0;
                    goto out;
                }
            }
            if (sp == 0)
                break;
            if (n >= g_lim.max_elems || w->full) {
                done = 0;
                break;
            }
            cur = stack[--sp];
            n++;
            write_node(w, np, cur, 0);
            if (next_node(np, mt, cur + roff, &cur) != 0) {
                done = 0;
                break;
            }
        }
    }
out:
    seq_end(hdr, mt, total >= 0 ? (uint32_t)total : done ? n : BOUND_UNKNOWN, n);
}

// The nodes chained from an array of bucket heads (references, or structs
// holding one: .NET 8's VolatileNode), in bucket order, at most max_elems
// nodes and CHAIN_SCAN_PER_ELEM times that many buckets looked at.
static void write_chains(writer *w, uintptr_t arr, int compact) {
    uintptr_t amt = 0, probe;
    if (clr_safe_copy(&amt, (void *)arr, 8) != 0 || amt == 0 || clr_safe_copy(&probe, (void *)amt, 8) != 0) {
        tag(w, VT_UNREADABLE);
        return;
    }
    ClassID acls = amt;
    const clr_class_plan *ap = clr_plan_lookup(amt);
    clr_class_plan implicit;
    if (ap == NULL && class_from_object(arr, &acls) >= 0 && acls != 0) {
        ap = clr_plan_lookup(acls);
        if (ap == NULL && implicit_array_plan(acls, &implicit))
            ap = &implicit;
    }
    if (ap == NULL) {
        write_object(w, arr); // VT_NOPLAN: planned for next time
        return;
    }
    uint32_t head = 0;
    if (ap->shape != SHAPE_ARRAY || ap->rank > 1 || ap->elem_size != 8) {
        write_object(w, arr);
        return;
    }
    if (ap->elem_kind == VK_STRUCT) {
        if (ap->elem == NULL || ap->elem->nfields != 1 || ap->elem->fields[0].kind != VK_REF) {
            write_object(w, arr);
            return;
        }
        head = ap->elem->fields[0].offset;
    } else if (ap->elem_kind != VK_REF) {
        write_object(w, arr);
        return;
    }
    ULONG32 dim = 0;
    int lbound = 0;
    BYTE *data = NULL;
    if (array_object_info(arr, 1, &dim, &lbound, &data) < 0 || data == NULL) {
        tag(w, VT_UNREADABLE);
        return;
    }
    uint8_t *hdr = NULL;
    const clr_class_plan *np = NULL;
    uintptr_t mt = 0;
    uint32_t n = 0;
    int done = !compact;
    uint64_t scan = (uint64_t)g_lim.max_elems * CHAIN_SCAN_PER_ELEM;
    if (scan < 64)
        scan = 64;
    if (!compact) {
        for (uint32_t i = 0; i < dim && done; i += CHUNK) {
            if (i >= scan) {
                done = 0;
                break;
            }
            uint32_t k = dim - i < CHUNK ? dim - i : CHUNK;
            uint64_t heads[CHUNK];
            if (clr_safe_copy(heads, data + (uintptr_t)i * 8, (uintptr_t)k * 8) != 0) {
                done = 0;
                break;
            }
            for (uint32_t j = 0; j < k && done; j++) {
                uintptr_t cur = 0;
                if (head != 0 && clr_safe_copy(&cur, data + (uintptr_t)(i + j) * 8 + head, 8) != 0) {
                    done = 0;
                    break;
                }
                if (head == 0)
                    cur = heads[j];
                while (cur != 0) {
                    if (np == NULL) {
                        if ((np = node_plan(w, cur, &mt)) == NULL)
                            return; // VT_NOPLAN: Go plans the node class for next time
                        if (np->link[0] == 0) {
                            write_object(w, arr);
                            return;
                        }
                        if ((hdr = seq_begin(w)) == NULL)
                            return;
                    }
                    if (n >= g_lim.max_elems || w->full) {
                        done = 0;
                        break;
                    }
                    n++;
                    write_node(w, np, cur, 1);
                    if (next_node(np, mt, cur + np->fields[np->link[0] - 1].offset, &cur) != 0) {
                        done = 0;
                        break;
                    }
                }
            }
        }
    }
    if (hdr == NULL) {
        // No node met: an empty table, or none in the part looked at.
        if ((hdr = seq_begin(w)) == NULL)
            return;
        mt = acls;
    }
    seq_end(hdr, mt, done ? n : BOUND_UNKNOWN, n);
}

static void write_walk(writer *w, const clr_value_plan *f, uintptr_t owner) {
    int32_t count = -1;
    uintptr_t ref = 0;
    if (f->bound_offset != BOUND_NO_COUNT && clr_safe_copy(&count, (void *)(owner + f->bound_offset), 4) != 0)
        count = -1;
    if (clr_safe_copy(&ref, (void *)(owner + f->offset), 8) != 0) {
        tag(w, VT_UNREADABLE);
        return;
    }
    if (ref == 0) {
        tag(w, VT_NULL);
        return;
    }
    // As a collection's array: from the compact depth on, only the count.
    int compact = w->depth >= w->compact_depth;
    if (f->bounded == BOUND_TREE)
        write_tree(w, ref, count, compact);
    else
        write_chains(w, ref, compact);
}

// The exact type argument `index` (of the method's class, or of the method
// itself) in a shared-generic frame. The counts the runtime reports are
// checked against the buffers' capacity, which is passed as it is.
__attribute__((noinline)) static HRESULT frame_type_arg(uintptr_t fid, COR_PRF_FRAME_INFO frame, int method_var, uint32_t index, ClassID *out) {
    enum { MAX_ARGS = 32 };
    ProfInfoVtbl *v = g_rt.vtbl;
    ClassID cls = 0, args[MAX_ARGS];
    ModuleID mod;
    mdToken tok;
    ULONG32 n = 0;
    HRESULT hr = v->GetFunctionInfo2(g_rt.info, fid, frame, &cls, &mod, &tok, MAX_ARGS, &n, args);
    if (hr < 0)
        return hr;
    if (!method_var) {
        mdTypeDef td;
        ClassID parent;
        if (cls == 0 || (hr = v->GetClassIDInfo2(g_rt.info, cls, &mod, &td, &parent, MAX_ARGS, &n, args)) < 0)
            return E_FAIL;
    }
    if (index >= n || index >= MAX_ARGS || args[index] == 0)
        return E_FAIL;
    *out = args[index];
    return S_OK;
}

// A type parameter's value: inline when its exact type is a value type (the
// plan of its box says how to read it), an object reference otherwise. A
// type not planned yet is handed to Go, as an object's class is.
static void write_type_arg(writer *w, const clr_value_plan *vp, uintptr_t addr) {
    ClassID cls = 0;
    if (w->frame == 0 || frame_type_arg(w->fid, w->frame, vp->method_var, vp->offset, &cls) < 0) {
        tag(w, VT_SKIP);
        return;
    }
    const clr_class_plan *p = clr_plan_lookup(cls);
    if (p == NULL) {
        tag_u64(w, VT_NOPLAN, cls);
        return;
    }
    if (p->shape == SHAPE_BOXED) {
        if (p->elem == NULL)
            tag(w, VT_SKIP);
        else
            write_struct(w, p->elem, addr, VT_STRUCT);
        return;
    }
    uintptr_t obj = 0;
    if (clr_safe_copy(&obj, (void *)addr, 8) != 0)
        tag(w, VT_UNREADABLE);
    else
        write_object(w, obj);
}

static void write_value(writer *w, const clr_value_plan *vp, uintptr_t addr) {
    if (w->full)
        return;
    if (vp->redact) {
        tag(w, VT_REDACTED);
        return;
    }
    uint32_t size = prim_size(vp->kind);
    if (size) {
        uint8_t tmp[8];
        if (clr_safe_copy(tmp, (void *)addr, size) != 0) {
            tag(w, VT_UNREADABLE);
        } else if (room(w, 2 + size)) {
            *w->p++ = VT_PRIM;
            *w->p++ = vp->kind;
            put(w, tmp, size);
        }
        return;
    }
    uintptr_t v = 0;
    switch (vp->kind) {
    case VK_REF:
        if (clr_safe_copy(&v, (void *)addr, 8) != 0)
            tag(w, VT_UNREADABLE);
        else
            write_object(w, v);
        return;
    case VK_STRUCT:
        write_struct(w, vp->cls, addr, VT_STRUCT);
        return;
    case VK_PTR:
        if (clr_safe_copy(&v, (void *)addr, 8) != 0)
            tag(w, VT_UNREADABLE);
        else
            tag_u64(w, VT_PTR, v);
        return;
    case VK_BYREF: {
        if (clr_safe_copy(&v, (void *)addr, 8) != 0) {
            tag(w, VT_UNREADABLE);
            return;
        }
        if (v == 0) {
            tag(w, VT_NULL);
            return;
        }
        clr_value_plan inner = {.kind = vp->elem_kind, .cls = vp->cls, .method_var = vp->method_var, .offset = vp->offset};
        write_value(w, &inner, v);
        return;
    }
    case VK_TYPEARG:
        write_type_arg(w, vp, addr);
        return;
    }
    tag(w, VT_SKIP);
}

// Statics live where the runtime put them; an uninitialised class has no
// storage yet (CORPROF_E_DATAINCOMPLETE), which reads as "not captured".
static void write_static(writer *w, const clr_static_plan *sp) {
    ProfInfoVtbl *v = g_rt.vtbl;
    void *info = g_rt.info;
    void *addr = NULL;
    HRESULT hr = E_FAIL;
    ThreadID tid = 0;
    AppDomainID ad = 0;
    switch (sp->where) {
    case STATIC_APPDOMAIN:
        if (v->GetCurrentThreadID(info, &tid) >= 0 && v->GetThreadAppDomain(info, tid, &ad) >= 0)
            hr = v->GetAppDomainStaticAddress(info, sp->class_id, sp->field, ad, &addr);
        break;
    case STATIC_THREAD:
        if (v->GetCurrentThreadID(info, &tid) >= 0)
            hr = v->GetThreadStaticAddress(info, sp->class_id, sp->field, tid, &addr);
        break;
    case STATIC_RVA:
        hr = v->GetRVAStaticAddress(info, sp->class_id, sp->field, &addr);
        break;
    }
    if (hr < 0 || addr == NULL) {
        tag(w, VT_SKIP);
        return;
    }
    write_value(w, &sp->value, (uintptr_t)addr);
}

static void writer_init(writer *w, uint8_t *buf, uint32_t len, uintptr_t fid, COR_PRF_FRAME_INFO frame) {
    w->fid = fid;
    w->frame = frame;
    if (len > g_lim.max_bytes)
        len = g_lim.max_bytes;
    w->p = buf;
    w->end = buf + len - 1;
    w->full = 0;
    w->depth = 0;
    w->bound = -1;
    w->bound_text = 0;
    w->plain_field = 0;
    w->compact_depth = COMPACT_DEPTH;
    w->nseen = 0;
}

// The exact class of a shared-generic frame (the runtime reads it from the
// frame's generic context).
__attribute__((noinline)) static HRESULT frame_class(uintptr_t fid, COR_PRF_FRAME_INFO frame, ClassID *cls) {
    ModuleID mod;
    mdToken tok;
    ULONG32 n = 0;
    return g_rt.vtbl->GetFunctionInfo2(g_rt.info, fid, frame, cls, &mod, &tok, 0, &n, NULL);
}

// Writes the `this` of a method of a generic struct shared by its
// reference-type instantiations: addr holds a managed pointer into the
// struct (never an object reference), read with the plan of the exact
// class. A class without a plan yet is handed to Go (VT_NOPLAN).
static void write_exact_this(writer *w, uintptr_t fid, COR_PRF_FRAME_INFO frame, uintptr_t addr) {
    ClassID cls = 0;
    uintptr_t v = 0;
    if (frame == 0 || frame_class(fid, frame, &cls) < 0 || cls == 0) {
        tag(w, VT_SKIP);
        return;
    }
    const clr_class_plan *box = clr_plan_lookup(cls);
    if (box == NULL || box->shape != SHAPE_BOXED || box->elem == NULL) {
        tag_u64(w, VT_NOPLAN, cls);
        return;
    }
    if (clr_safe_copy(&v, (void *)addr, 8) != 0 || v == 0) {
        tag(w, VT_UNREADABLE);
        return;
    }
    write_struct(w, box->elem, v, VT_STRUCT);
}

static uint32_t capture_args(const clr_fn_plan *plan, uintptr_t fid, COR_PRF_FRAME_INFO frame,
                             const COR_PRF_FUNCTION_ARGUMENT_INFO *info, uint8_t *buf, uint32_t len);

// A top-level value shorter than this is left unwrapped: it is stepped
// over as fast by reading it as by its size.
enum { SIZED_HDR = 5, SIZED_MIN = 32 };

// sized_begin reserves a VT_SIZED header for the top-level value written
// next (NULL: no room, and the stream is cut); sized_end fills it in, or
// moves a short or cut value back over it.
static uint8_t *sized_begin(writer *w) {
    if (!room(w, SIZED_HDR))
        return NULL;
    uint8_t *h = w->p;
    w->p += SIZED_HDR;
    return h;
}

static void sized_end(writer *w, uint8_t *h) {
    if (h == NULL)
        return;
    uint32_t n = (uint32_t)(w->p - (h + SIZED_HDR));
    // A cut value stays unwrapped, so that the drainer, reading it, sees
    // the cut (VT_TRUNC) and marks the span.
    if (n < SIZED_MIN || w->full) {
        memmove(h, h + SIZED_HDR, n);
        w->p -= SIZED_HDR;
        return;
    }
    h[0] = VT_SIZED;
    memcpy(h + 1, &n, 4);
}

// write_top writes an argument or a return value; a primitive is never
// large.
static void write_top(writer *w, const clr_value_plan *vp, uintptr_t addr) {
    if (prim_size(vp->kind) != 0 || vp->redact) {
        write_value(w, vp, addr);
        return;
    }
    uint8_t *h = sized_begin(w);
    write_value(w, vp, addr);
    sized_end(w, h);
}

// Whether reading a slot asks about the call's frame: a type parameter's
// value, or what a managed pointer to one points at.
static int slot_needs_frame(const clr_value_plan *vp) {
    return vp->kind == VK_TYPEARG || (vp->kind == VK_BYREF && vp->elem_kind == VK_TYPEARG);
}

// Whether capturing a call's arguments asks about its frame, which the
// runtime gives only with its answer (no argument layout then).
static int args_need_frame(const clr_fn_plan *plan) {
    if (plan->this_exact || (plan->has_this && slot_needs_frame(&plan->this_plan)))
        return 1;
    for (uint32_t i = 0; i < plan->nargs; i++)
        if (slot_needs_frame(&plan->args[i]))
            return 1;
    return 0;
}

uint32_t clr_capture_enter(const clr_fn_plan *plan, clr_arg_layout *lay, uintptr_t fid, uintptr_t elt, uint8_t *buf, uint32_t len) {
    // Room for `this` and 63 arguments (eltargs.h).
    clr_enter_args ai;
    clr_elt_fp fp;
    COR_PRF_FRAME_INFO frame = 0;
    if (len < 2)
        return 0;
    uint32_t n = 0;
    // Decided once, on the first call: a refused layout is never learned.
    if (lay != NULL && clr_arg_layout_unlearned(lay) && args_need_frame(plan))
        clr_arg_layout_refuse(lay);
    if (clr_enter_args_learned(&g_rt, lay, plan->has_this, fid, elt, &frame, &ai, &fp) >= 0)
        n = capture_args(plan, fid, frame, &ai.info, buf, len);
    clr_enter_args_done(&fp); // after the struct copies were read
    return n;
}

// Writes `this`, the arguments and the statics of a call whose argument
// ranges the runtime gave.
static uint32_t capture_args(const clr_fn_plan *plan, uintptr_t fid, COR_PRF_FRAME_INFO frame,
                             const COR_PRF_FUNCTION_ARGUMENT_INFO *info, uint8_t *buf, uint32_t len) {
    enum { MAX_RANGES = ELT_MAX_RANGES };
    writer w;
    writer_init(&w, buf, len, fid, frame);
    uint32_t r = 0, nr = info->numRanges;
    // The runtime declares ranges[1] and fills as many as it reported, into
    // the room the caller gave after it: index through a pointer.
    const COR_PRF_FUNCTION_ARGUMENT_RANGE *ranges = info->ranges;
    if (plan->has_this) {
        w.compact_depth = COMPACT_DEPTH_THIS;
        uint8_t *h = sized_begin(&w);
        if (r < nr && plan->this_exact)
            write_exact_this(&w, fid, frame, ranges[r].startAddress);
        else if (r < nr)
            write_value(&w, &plan->this_plan, ranges[r].startAddress);
        else
            tag(&w, VT_SKIP);
        sized_end(&w, h);
        w.compact_depth = COMPACT_DEPTH;
        r++;
    }
    for (uint32_t i = 0; i < plan->nargs && !w.full; i++, r++) {
        if (r < nr && r < MAX_RANGES)
            write_top(&w, &plan->args[i], ranges[r].startAddress);
        else
            tag(&w, VT_SKIP);
    }
    for (uint32_t i = 0; i < plan->nstatics && !w.full; i++)
        write_static(&w, &plan->statics[i]);
    return (uint32_t)(w.p - buf);
}

uint32_t clr_capture_leave(const clr_fn_plan *plan, clr_arg_layout *lay, uintptr_t fid, uintptr_t elt, uint8_t *buf, uint32_t len) {
    COR_PRF_FRAME_INFO frame = 0;
    COR_PRF_FUNCTION_ARGUMENT_RANGE rv = {0, 0};
    if (len < 2 || !plan->capture_ret)
        return 0;
    // A float is answered through a copy (clr_leave_ret_learned).
    if (lay != NULL && clr_arg_layout_unlearned(lay) &&
        (slot_needs_frame(&plan->ret) || plan->ret.kind == VK_R4 || plan->ret.kind == VK_R8))
        clr_arg_layout_refuse(lay);
    if (clr_leave_ret_learned(&g_rt, lay, fid, elt, &frame, &rv) < 0 || rv.startAddress == 0)
        return 0;
    writer w;
    writer_init(&w, buf, len, fid, frame);
    write_top(&w, &plan->ret, rv.startAddress);
    return (uint32_t)(w.p - buf);
}

// Writes what an exception record carries: u64 class, the message (a
// string value, or null), u64 class of the inner exception (0: none), its
// message. The message offset comes from System.Exception's layout (Go
// finds it once); 0 means not known yet, and no message is read.
uint32_t clr_capture_exception(uintptr_t obj, uint32_t msg_off, uint32_t inner_off, uint8_t *buf, uint32_t len) {
    writer w;
    writer_init(&w, buf, len, 0, 0);
    clr_value_plan str = {.kind = VK_REF};
    ClassID cls = 0;
    if (class_from_object(obj, &cls) < 0 || !room(&w, 8))
        return 0;
    uint64_t c = cls;
    put(&w, &c, 8);
    if (msg_off)
        write_value(&w, &str, obj + msg_off);
    else
        tag(&w, VT_SKIP);
    uintptr_t inner = 0;
    if (inner_off)
        clr_safe_copy(&inner, (void *)(obj + inner_off), 8);
    ClassID icls = 0;
    if (inner != 0 && class_from_object(inner, &icls) < 0)
        icls = 0;
    if (!room(&w, 8))
        return (uint32_t)(w.p - buf);
    c = icls;
    put(&w, &c, 8);
    if (icls != 0 && msg_off)
        write_value(&w, &str, inner + msg_off);
    return (uint32_t)(w.p - buf);
}
