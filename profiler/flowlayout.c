// flowlayout.c: the added fields of shared generic code's steps, found in
// each call's exact class (flowlayout.h).
#include <stdlib.h>
#include <string.h>

#include "eltargs.h"
#include "flowlayout.h"
#include "guard.h"
#include "safecopy.h"

static _Atomic uint64_t g_missing, g_uncached;

uint64_t clr_flow_layout_missing(void) { return atomic_load_explicit(&g_missing, memory_order_relaxed); }
uint64_t clr_flow_layout_uncached(void) { return atomic_load_explicit(&g_uncached, memory_order_relaxed); }

clr_flow_layout *clr_flow_layout_new(const uint32_t *tok, uint32_t n, int object_this) {
    if (n == 0 || n > FLOW_LAYOUT_FIELDS)
        return NULL;
    clr_flow_layout *l = calloc(1, sizeof *l);
    if (l == NULL)
        return NULL;
    memcpy(l->tok, tok, n * sizeof *tok);
    l->n = n;
    l->object_this = object_this != 0;
    // Every slot is a probe: a layout remembers its first
    // FLOW_LAYOUT_CLASSES classes; the calls of any class past them are
    // counted in g_uncached.
    l->classes = (lftable){l->slot, FLOW_LAYOUT_CLASSES - 1, FLOW_LAYOUT_CLASSES, &g_uncached};
    return l;
}

// The fields a state machine can have: its own (the compiler's locals and
// awaiters) and the added ones, which come last in its metadata. A class
// with more is read in its first FLOW_MAX_FIELDS.
enum { FLOW_MAX_FIELDS = 256 };

// l's fields in the runtime's layout of cls: 1 when every one is there.
static int runtime_offsets(const clr_runtime *rt, const clr_flow_layout *l, uintptr_t cls, uint16_t off[FLOW_LAYOUT_FIELDS]) {
    COR_FIELD_OFFSET fields[FLOW_MAX_FIELDS];
    ULONG n = 0, size = 0;
    if (clr_guarded_class_layout(rt, (ClassID)cls, fields, FLOW_MAX_FIELDS, &n, &size) < 0)
        return 0;
    if (n > FLOW_MAX_FIELDS)
        n = FLOW_MAX_FIELDS;
    uint32_t found = 0;
    for (uint32_t k = 0; k < l->n; k++) {
        for (ULONG i = 0; i < n; i++) {
            if (fields[i].ridOfField == l->tok[k] && fields[i].ulOffset < (1u << 16)) {
                off[k] = (uint16_t)fields[i].ulOffset;
                found++;
                break;
            }
        }
    }
    return found == l->n;
}

int clr_flow_layout_offsets(const clr_runtime *rt, clr_flow_layout *l, uintptr_t cls, uint16_t off[FLOW_LAYOUT_FIELDS]) {
    int64_t i = lft_find(&l->classes, cls);
    if (i >= 0 && lft_val(&l->classes, i) != 0) {
        memcpy(off, l->off[i], sizeof l->off[i]);
        return 1;
    }
    if (cls == 0 || cls == LFT_GONE)
        return 0;
    if (!runtime_offsets(rt, l, cls, off)) {
        atomic_fetch_add_explicit(&g_missing, 1, memory_order_relaxed);
        return 0;
    }
    // Written by the thread that claims the slot alone; another meeting the
    // class meanwhile uses the offsets it read itself.
    int mine = 0;
    if ((i = lft_claim(&l->classes, cls, &mine)) >= 0 && mine) {
        memcpy(l->off[i], off, sizeof l->off[i]);
        lft_set(&l->classes, i, 1);
    }
    return 1;
}

// The exact class of a shared generic frame (the runtime reads it from the
// frame's generic context: `this`'s type for a class, the instantiating
// argument for a struct).
__attribute__((noinline)) static HRESULT flow_frame_class(const clr_runtime *rt, uintptr_t fid, COR_PRF_FRAME_INFO frame,
                                                          ClassID *cls) {
    ModuleID mod;
    mdToken tok;
    ULONG32 n = 0;
    return rt->vtbl->GetFunctionInfo2(rt->info, fid, frame, cls, &mod, &tok, 0, &n, NULL);
}

// The frame's `this` and exact class, as the runtime reads them from the
// call's arguments and generic context.
static int frame_this(const clr_runtime *rt, uintptr_t fid, uintptr_t elt, uintptr_t *self, ClassID *cls) {
    clr_enter_args a;
    clr_elt_fp fp;
    COR_PRF_FRAME_INFO frame = 0;
    uintptr_t me = 0;
    int ok = clr_enter_args_get(rt, fid, elt, &frame, &a, &fp) >= 0 && a.info.numRanges > 0 &&
             a.info.ranges[0].length >= sizeof me && clr_guarded_read(&me, a.info.ranges[0].startAddress, sizeof me);
    clr_enter_args_done(&fp);
    if (!ok || me == 0 || frame == 0 || flow_frame_class(rt, fid, frame, cls) < 0)
        return 0;
    *self = me;
    return 1;
}

int clr_flow_this(const clr_runtime *rt, uintptr_t fid, uintptr_t elt, clr_flow_layout *l, uintptr_t *self,
                  uint16_t off[FLOW_LAYOUT_FIELDS]) {
    uintptr_t me = 0;
    ClassID cls = 0;
    if (l->object_this) {
        me = clr_elt_this(rt, fid, elt);
        if (me == 0 || clr_guarded_class_from_object(rt, (ObjectID)me, &cls) < 0)
            return 0;
    } else if (!frame_this(rt, fid, elt, &me, &cls)) {
        return 0;
    }
    if (cls == 0 || !clr_flow_layout_offsets(rt, l, cls, off))
        return 0;
    *self = me;
    return 1;
}
