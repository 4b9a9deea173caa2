package cplan

/*
#include <stdio.h>
#include <string.h>
#include "values.h"

// What the hooks read of a plan, written out by C: every field by its C
// name, class plans followed through their pointers (a class met again
// is written as its id only).
typedef struct { char *buf; size_t cap, len; const clr_class_plan *seen[64]; int nseen; } out;

static void put(out *o, const char *s) {
    size_t n = strlen(s);
    if (o->len + n + 1 > o->cap)
        return;
    memcpy(o->buf + o->len, s, n + 1);
    o->len += n;
}

static void class_plan(out *o, const clr_class_plan *p);

static void value_plan(out *o, const clr_value_plan *v) {
    char b[160];
    snprintf(b, sizeof b, "{kind=%u redact=%u elem_kind=%u method_var=%u offset=%u bounded=%u bound_offset=%u", v->kind,
             v->redact, v->elem_kind, v->method_var, v->offset, v->bounded, v->bound_offset);
    put(o, b);
    if (v->cls) {
        put(o, " cls=");
        class_plan(o, v->cls);
    }
    put(o, "}");
}

static void class_plan(out *o, const clr_class_plan *p) {
    char b[200];
    for (int i = 0; i < o->nseen; i++)
        if (o->seen[i] == p) {
            snprintf(b, sizeof b, "[class_id=%lu again]", (unsigned long)p->class_id);
            put(o, b);
            return;
        }
    if (o->nseen < 64)
        o->seen[o->nseen++] = p;
    snprintf(b, sizeof b, "[class_id=%lu shape=%u elem_kind=%u nfields=%u elem_size=%u box_offset=%u rank=%u link=%u,%u node_count=%u view=%u",
             (unsigned long)p->class_id, p->shape, p->elem_kind, p->nfields, p->elem_size, p->box_offset, p->rank, p->link[0],
             p->link[1], p->node_count, p->view);
    put(o, b);
    if (p->elem) {
        put(o, " elem=");
        class_plan(o, p->elem);
    }
    for (int i = 0; i < p->nfields; i++) {
        put(o, " ");
        value_plan(o, &p->fields[i]);
    }
    put(o, "]");
}

static size_t describe_class(const void *p, char *buf, size_t cap) {
    out o = {buf, cap, 0};
    buf[0] = 0;
    class_plan(&o, p);
    return o.len;
}

static size_t describe_fn(const void *fp, char *buf, size_t cap) {
    const clr_fn_plan *p = fp;
    out o = {buf, cap, 0};
    char b[120];
    buf[0] = 0;
    snprintf(b, sizeof b, "nargs=%u has_this=%u capture_ret=%u this_exact=%u nstatics=%u this=", p->nargs, p->has_this,
             p->capture_ret, p->this_exact, p->nstatics);
    put(&o, b);
    value_plan(&o, &p->this_plan);
    put(&o, " ret=");
    value_plan(&o, &p->ret);
    for (int i = 0; i < p->nargs; i++) {
        put(&o, " arg=");
        value_plan(&o, &p->args[i]);
    }
    for (uint32_t i = 0; i < p->nstatics; i++) {
        const clr_static_plan *s = &p->statics[i];
        snprintf(b, sizeof b, " static=(class_id=%lu field=%#x where=%u ", (unsigned long)s->class_id, s->field, s->where);
        put(&o, b);
        value_plan(&o, &s->value);
        put(&o, ")");
    }
    return o.len;
}
*/
import "C"

import (
	"unsafe"

	"github.com/clrotel/clrotel/planning"
	"github.com/clrotel/clrotel/values"
)

// describe writes out, from C, what the hooks read of a plan copied by
// Class or Function (fn: a clr_fn_plan).
func describe(p unsafe.Pointer, fn bool) string {
	buf := make([]byte, 1<<16)
	var n C.size_t
	if fn {
		n = C.describe_fn(p, (*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)))
	} else {
		n = C.describe_class(p, (*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)))
	}
	return string(buf[:n])
}

// constant is one constant both package planning (or values) and
// values.h define.
type constant struct {
	name  string
	goVal uint64
	cVal  uint64
}

// constants lists the constants the C side reads plans by.
func constants() []constant {
	return []constant{
		{"SHAPE_OBJECT", uint64(planning.ShapeObject), C.SHAPE_OBJECT},
		{"SHAPE_STRING", uint64(planning.ShapeString), C.SHAPE_STRING},
		{"SHAPE_ARRAY", uint64(planning.ShapeArray), C.SHAPE_ARRAY},
		{"SHAPE_BOXED", uint64(planning.ShapeBoxed), C.SHAPE_BOXED},
		{"SHAPE_STRUCT", uint64(planning.ShapeStruct), C.SHAPE_STRUCT},
		{"BOUND_COLLECTION", uint64(planning.BoundCollection), C.BOUND_COLLECTION},
		{"BOUND_TEXT", uint64(planning.BoundText), C.BOUND_TEXT},
		{"BOUND_TREE", uint64(planning.BoundTree), C.BOUND_TREE},
		{"BOUND_CHAINS", uint64(planning.BoundChains), C.BOUND_CHAINS},
		{"BOUND_INNER", uint64(planning.BoundInner), C.BOUND_INNER},
		{"BOUND_NO_COUNT", uint64(planning.NoCount), C.BOUND_NO_COUNT},
		{"VIEW_RENDERED", uint64(planning.ViewRendered), C.VIEW_RENDERED},
		{"VIEW_PLAIN", uint64(planning.ViewPlain), C.VIEW_PLAIN},
		{"VIEW_TERSE", uint64(planning.ViewTerse), C.VIEW_TERSE},
		{"STATIC_APPDOMAIN", uint64(planning.StaticAppDomain), C.STATIC_APPDOMAIN},
		{"STATIC_THREAD", uint64(planning.StaticThread), C.STATIC_THREAD},
		{"STATIC_RVA", uint64(planning.StaticRVA), C.STATIC_RVA},
		{"VK_SKIP", uint64(values.KindSkip), C.VK_SKIP},
		{"VK_BOOL", uint64(values.KindBool), C.VK_BOOL},
		{"VK_CHAR", uint64(values.KindChar), C.VK_CHAR},
		{"VK_I1", uint64(values.KindI1), C.VK_I1},
		{"VK_U1", uint64(values.KindU1), C.VK_U1},
		{"VK_I2", uint64(values.KindI2), C.VK_I2},
		{"VK_U2", uint64(values.KindU2), C.VK_U2},
		{"VK_I4", uint64(values.KindI4), C.VK_I4},
		{"VK_U4", uint64(values.KindU4), C.VK_U4},
		{"VK_I8", uint64(values.KindI8), C.VK_I8},
		{"VK_U8", uint64(values.KindU8), C.VK_U8},
		{"VK_R4", uint64(values.KindR4), C.VK_R4},
		{"VK_R8", uint64(values.KindR8), C.VK_R8},
		{"VK_I", uint64(values.KindI), C.VK_I},
		{"VK_U", uint64(values.KindU), C.VK_U},
		{"VK_REF", uint64(values.KindRef), C.VK_REF},
		{"VK_STRUCT", uint64(values.KindStruct), C.VK_STRUCT},
		{"VK_PTR", uint64(values.KindPtr), C.VK_PTR},
		{"VK_BYREF", uint64(values.KindByRef), C.VK_BYREF},
		{"VK_TYPEARG", uint64(values.KindTypeArg), C.VK_TYPEARG},
	}
}
