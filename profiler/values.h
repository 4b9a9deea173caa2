// values.h: capture plans (built by Go, read by C) and the value stream the
// hooks write into enter and leave records (decoded by package values).
#ifndef CLROTEL_VALUES_H
#define CLROTEL_VALUES_H

#include <stdint.h>
#include <stdatomic.h>

#include "arglayout.h"

// How to read one value. Primitive kinds double as their stream kind byte.
enum {
    VK_SKIP = 0, // not captured (an out parameter at entry, an unsupported type)
    VK_BOOL = 1, VK_CHAR = 2, VK_I1 = 3, VK_U1 = 4, VK_I2 = 5, VK_U2 = 6, VK_I4 = 7, VK_U4 = 8,
    VK_I8 = 9, VK_U8 = 10, VK_R4 = 11, VK_R8 = 12, VK_I = 13, VK_U = 14,
    VK_REF = 20,    // object reference: its runtime class decides (string, array, object, box)
    VK_STRUCT = 21, // value type stored inline: plan in `cls`
    VK_PTR = 22,    // unmanaged or function pointer: the address
    VK_BYREF = 23,  // managed pointer (ref/in): the value it points to, read as `elem`
    // A type parameter of shared generic code whose instantiation only the
    // frame knows (Pair<Int32, __Canon> shares code, and its A is Int32
    // there, not a reference): the exact type argument decides, per call.
    // `offset` is the parameter's index, `method_var` 1 for a method's.
    VK_TYPEARG = 24,
};

// Tags of the value stream. Values are packed, little-endian, unaligned.
enum {
    VT_NULL = 1,       //
    VT_PRIM = 2,       // u8 kind, then 1/2/4/8 bytes
    VT_STRING = 3,     // u32 length, u32 copied, copied UTF-16 code units
    VT_OBJECT = 4,     // u64 class, u16 n, n values (fields in plan order)
    VT_STRUCT = 5,     // u64 class, u16 n, n values
    VT_ARRAY = 6,      // u64 class, u8 rank, u32 dims[rank], u32 copied, copied values
    VT_NOPLAN = 7,     // u64 class: layout not known yet
    VT_CYCLE = 8,      // u8 index of an object already written (in write order)
    VT_DEPTH = 9,      // u64 class: deeper than the depth limit
    VT_UNREADABLE = 10,// memory could not be read
    VT_TRUNC = 11,     // the byte budget ended here: nothing follows
    VT_PTR = 12,       // u64 address
    VT_SKIP = 13,      // not captured
    VT_REDACTED = 14,  // sensitive: not read
    VT_BOXED = 15,     // u64 class, then the value type's VT_STRUCT
    VT_SIZED = 16,     // u32 n, then one value of n bytes: a top-level value of
                       // a call or a return, so that the drainer can step over
                       // it without reading it (its memo replays most of them)
};

enum { SHAPE_OBJECT = 1, SHAPE_STRING = 2, SHAPE_ARRAY = 3, SHAPE_BOXED = 4, SHAPE_STRUCT = 5 };

struct clr_class_plan;

// Bounded array fields: a collection's elements (List<T>._items up to
// _size), not copied at all from COMPACT_DEPTH (COMPACT_DEPTH_THIS inside
// `this`) on, where they render as their count; or a text's characters
// (a StringBuilder chunk), always copied.
// BOUND_TREE and BOUND_CHAINS are collections whose elements hang off
// nodes rather than an array: the field holds a binary tree's root
// (SortedSet<T>.root, ImmutableList<T>._root), or an array of hash chains
// (ConcurrentDictionary's _tables._buckets). The hook walks them in order,
// at most max_elems nodes, and writes them as one VT_ARRAY whose class is
// the node's, dims[0] the real count (the Int32 at bound_offset of the
// owner, else the root's subtree count, else the nodes walked when the walk
// was complete, else BOUND_UNKNOWN), each element the node with its link
// fields as VT_SKIP. Nodes are no nesting level of their own. The node
// class's plan says which fields link (clr_class_plan.link).
// BOUND_INNER: the object the field holds is the collection's own inner
// part (SortedDictionary's _set), no nesting level of its own: its values
// are as deep as a Dictionary's.
enum { BOUND_COLLECTION = 1, BOUND_TEXT = 2, BOUND_TREE = 3, BOUND_CHAINS = 4, BOUND_INNER = 5 };
#define BOUND_NO_COUNT 0xFFFFFFFFu // bound_offset: the owner has no count field
#define BOUND_UNKNOWN 0xFFFFFFFFu  // dims[0] of a walk whose count is not known
enum { COMPACT_DEPTH = 3, COMPACT_DEPTH_THIS = 2 };

// How package values shows an object of a class (clr_class_plan.view).
// VIEW_TERSE: a framework class with no rendering of its own, which values
// shows as its type name alone wherever it is nested in a slot's value;
// as a field of an object shown field by field (VIEW_PLAIN or VIEW_TERSE)
// the hook reads none of its fields.
// VIEW_RENDERED (by meaning) may read any field of what it holds.
enum { VIEW_RENDERED = 0, VIEW_PLAIN = 1, VIEW_TERSE = 2 };

typedef struct clr_value_plan {
    uint8_t kind;
    uint8_t redact;
    uint8_t elem_kind; // VK_BYREF: the pointee's kind
    uint8_t method_var; // VK_TYPEARG (or a VK_BYREF to one): a method type parameter
    uint32_t offset;   // fields: offset from the object (or struct) start; VK_TYPEARG: the index
    uint8_t bounded;   // fields: BOUND_*: an array used only up to the Int32 at bound_offset
    uint32_t bound_offset; // bounded fields: where the count is, from the same start
    const struct clr_class_plan *cls; // VK_STRUCT, or VK_BYREF to a struct
} clr_value_plan;

// A class plan is immutable once published.
typedef struct clr_class_plan {
    uintptr_t class_id;
    uint8_t shape;
    uint8_t elem_kind;     // arrays: element kind
    uint16_t nfields;
    uint32_t elem_size;    // arrays: element size in bytes; structs: the value's size
    uint32_t box_offset;   // boxes: where the value starts in the object
    uint32_t rank;         // arrays
    const struct clr_class_plan *elem; // arrays of structs, boxes: the value type
    // Nodes of walked collections (BOUND_TREE, BOUND_CHAINS): 1 + the
    // index of the fields linking to other nodes (a tree's left and right,
    // a chain's next in link[0]), 0 for none; node_count: 1 + the index of
    // an Int32 subtree count (0: none; a node counting 0 is an empty
    // sentinel, ImmutableList's).
    uint8_t link[2];
    uint8_t node_count;
    uint8_t view; // objects: VIEW_*
    clr_value_plan fields[];
} clr_class_plan;

// A static field to record at entry: where the runtime keeps it, and how
// to read what is there (the value for primitives, an ObjectID for
// references, the ObjectID of a box for value types).
enum { STATIC_APPDOMAIN = 1, STATIC_THREAD = 2, STATIC_RVA = 3 };

typedef struct clr_static_plan {
    uintptr_t class_id;
    uint32_t field;  // mdFieldDef
    uint32_t where;  // STATIC_*
    clr_value_plan value;
} clr_static_plan;

// Per-function plan, hung off clr_fn.
typedef struct clr_fn_plan {
    uint16_t nargs;
    uint8_t has_this;
    uint8_t capture_ret;
    // `this` is a managed pointer to a struct whose exact type is known only
    // from the frame: a method of a generic struct compiled once for all
    // its reference-type instantiations (Holder<__Canon>). The value is
    // written by the plan of the class the frame names.
    uint8_t this_exact;
    uint8_t pad[3];
    uint32_t nstatics;
    const clr_static_plan *statics;
    clr_value_plan this_plan;
    clr_value_plan ret;
    clr_value_plan args[];
} clr_fn_plan;

typedef struct clr_value_limits {
    uint32_t max_bytes;   // value stream bytes per record
    uint32_t max_chars;   // UTF-16 units copied per string
    uint32_t max_elems;   // array elements copied
    uint32_t max_depth;   // object nesting
    uint32_t max_fields;  // fields per object
    uint32_t string_len_offset, string_buf_offset; // GetStringLayout2
} clr_value_limits;

// The runtime the reader asks (clrrt.h), and Go's limits and plan table
// size. Declared by its tag: the value format is shared with Go without the
// runtime's headers.
struct clr_runtime;
void clr_values_init(const struct clr_runtime *rt, const clr_value_limits *lim, uint32_t table_size);

// Go publishes class plans; C looks them up lock-free.
int clr_plan_publish(const clr_class_plan *p);
const clr_class_plan *clr_plan_lookup(uintptr_t class_id);
uint32_t clr_plan_count(void);

// Writes the values of a call into buf (at most len bytes); returns the
// bytes written.
uint32_t clr_capture_enter(const clr_fn_plan *plan, clr_arg_layout *lay, uintptr_t function_id, uintptr_t elt, uint8_t *buf,
                           uint32_t len);
uint32_t clr_capture_leave(const clr_fn_plan *plan, clr_arg_layout *lay, uintptr_t function_id, uintptr_t elt, uint8_t *buf,
                           uint32_t len);

uint32_t clr_capture_exception(uintptr_t obj, uint32_t msg_off, uint32_t inner_off, uint8_t *buf, uint32_t len);

#endif
