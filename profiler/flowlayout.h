// flowlayout.h: where the fields async.c adds are, for the steps of
// shared generic code (flowlayout.c).
#ifndef CLROTEL_FLOWLAYOUT_H
#define CLROTEL_FLOWLAYOUT_H

#include <stdatomic.h>
#include <stdint.h>

#include "clrrt.h"
#include "lftable.h"

// One compiled MoveNext (or iterator method) serves every reference-type
// instantiation of a generic state machine, and their layouts differ (a
// struct type argument holding references is laid out after the added
// Int64 fields, a reference before them). The step's added fields are
// found in the layout of each call's exact class, which the runtime reads
// from the frame's generic context; the classes met are remembered here,
// so the runtime's layout is asked once per class, not per call.
enum { FLOW_LAYOUT_FIELDS = 6, FLOW_LAYOUT_CLASSES = 16 };

typedef struct clr_flow_layout {
    uint32_t tok[FLOW_LAYOUT_FIELDS]; // the added fields' FieldDefs, in order
    uint32_t n;
    // The step's type is a sealed class: the call's exact class is its
    // `this` object's, asked of the object (GetClassFromObject) rather than
    // of the frame. Asking the frame costs the runtime a walk of the
    // method's signature (GetFunctionEnter3Info) and of its generic context
    // (GetFunctionInfo2), several times the call itself: a generic
    // iterator's every MoveNext. A struct's exact type is known only from
    // the frame.
    uint32_t object_this;
    // The classes met, by ClassID; a class's value is 1 once its offsets
    // are in off[its slot], and a slot's offsets never change after.
    lftable classes;
    lft_slot slot[FLOW_LAYOUT_CLASSES];
    uint16_t off[FLOW_LAYOUT_CLASSES][FLOW_LAYOUT_FIELDS];
} clr_flow_layout;

// A layout for the fields tok[0..n) (n <= FLOW_LAYOUT_FIELDS) of a step
// whose type is a sealed class (object_this) or a struct, zeroed memory of
// its own, never freed (like the clr_fn that points to it); NULL when n is
// out of range or there is no memory. Go calls it at JIT time.
clr_flow_layout *clr_flow_layout_new(const uint32_t *tok, uint32_t n, int object_this);

// The offsets from `this` of l's fields in the class cls, into off: 1, or
// 0 when the runtime gives no layout holding them (counted). Lock-free, no
// allocation: the hooks call it.
int clr_flow_layout_offsets(const clr_runtime *rt, clr_flow_layout *l, uintptr_t cls, uint16_t off[FLOW_LAYOUT_FIELDS]);

// The `this` of the shared generic step fid being entered (elt: the
// hook's COR_PRF_ELT_INFO) and its fields' offsets in the call's exact
// class (its object's, or the frame's: object_this): 1, or 0 when either
// cannot be read.
int clr_flow_this(const clr_runtime *rt, uintptr_t fid, uintptr_t elt, clr_flow_layout *l, uintptr_t *self,
                  uint16_t off[FLOW_LAYOUT_FIELDS]);

// Classes whose layout lacked the fields (or was refused), and classes
// found but not remembered for want of slots (asked again at each call).
uint64_t clr_flow_layout_missing(void);
uint64_t clr_flow_layout_uncached(void);

#endif
