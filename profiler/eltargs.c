// eltargs.c: the arguments of the call being entered (eltargs.h).
#include "eltargs.h"
#include "safecopy.h"

#include <stdatomic.h>

static int g_repair; // the runtime's stub does not keep the registers the question overwrites

void clr_elt_repair(int on) { g_repair = on; }

// COR_PRF_ELT_INFO points at a block whose first word is the stub's
// PROFILE_PLATFORM_SPECIFIC_DATA; the registers are 32 bytes at
// (data + ELT_FP_SAVE_END) & -16.
static inline uint8_t *fp_save_area(uintptr_t elt) {
    uintptr_t data = *(const uintptr_t *)elt;
    return data == 0 ? NULL : (uint8_t *)((data + ELT_FP_SAVE_END) & ~(uintptr_t)15);
}

// The runtime is told the real size of the ranges' room and refuses (no
// arguments for the call) rather than overrun it.
static inline HRESULT enter_args(const clr_runtime *rt, uintptr_t fid, uintptr_t elt, COR_PRF_FRAME_INFO *frame,
                                 clr_enter_args *args, clr_elt_fp *fp) {
    ULONG cb = sizeof *args;
    fp->at = g_repair && elt != 0 ? fp_save_area(elt) : NULL;
    if (fp->at != NULL)
        memcpy(fp->bytes, fp->at, ELT_FP_SAVE_SIZE);
    return rt->vtbl->GetFunctionEnter3Info(rt->info, fid, (COR_PRF_ELT_INFO)elt, frame, &cb, &args->info);
}

__attribute__((noinline)) HRESULT clr_enter_args_get(const clr_runtime *rt, uintptr_t fid, uintptr_t elt, COR_PRF_FRAME_INFO *frame,
                                                     clr_enter_args *args, clr_elt_fp *fp) {
    return enter_args(rt, fid, elt, frame, args, fp);
}

__attribute__((noinline)) HRESULT clr_leave_ret_get(const clr_runtime *rt, uintptr_t fid, uintptr_t elt, COR_PRF_FRAME_INFO *frame,
                                                    COR_PRF_FUNCTION_ARGUMENT_RANGE *rv) {
    return rt->vtbl->GetFunctionLeave3Info(rt->info, fid, (COR_PRF_ELT_INFO)elt, frame, rv);
}

// The runtime's ProfilingGetFunctionEnter3Info (proftoeeinterfaceimpl.cpp)
// gives an instance method's `this` as range 0, pointing at a word of its
// own ELT info block (COR_PRF_ELT_INFO_INTERNAL.pThis) that holds the value
// (rdi at entry, amd64 ProfileArgIterator::GetThis), with length
// sizeof(void *): readable, and not in the struct-copy area the register
// repair rewrites. Other arguments point into the stub's saved registers,
// the caller's stack or that area; each is read only when its range holds
// the bytes asked, guarded, and before the registers are put back, whatever
// its place.
__attribute__((noinline)) int clr_elt_arg(const clr_runtime *rt, uintptr_t fid, uintptr_t elt, uint32_t idx, void *out, uint32_t size) {
    clr_enter_args a;
    clr_elt_fp fp;
    COR_PRF_FRAME_INFO frame = 0;
    // The ranges run on past the one the runtime's struct declares, into
    // a.more: reached through a pointer, not an index of that array.
    const COR_PRF_FUNCTION_ARGUMENT_RANGE *r = a.info.ranges + idx;
    int ok = enter_args(rt, fid, elt, &frame, &a, &fp) >= 0 && idx < a.info.numRanges && idx < ELT_MAX_RANGES &&
             r->length >= size && clr_guarded_read(out, r->startAddress, size);
    clr_enter_args_done(&fp);
    return ok;
}

// Per saved register (rdi, rsi, rax): whether it is read directly (1 on,
// -1 off, 0 checking) and how many of the runtime's answers agreed with
// it. Each is judged on its own: rsi holds argument 1 only when that is a
// word passed in an integer register, rax a return only when it is one.
enum { REG_RDI, REG_RSI, REG_RAX, REG_COUNT };
static const uint32_t g_reg_at[REG_COUNT] = {ELT_RDI, ELT_RDI + 8, ELT_RAX};
static struct {
    _Atomic int direct;
    _Atomic uint32_t agreed;
} g_reg[REG_COUNT];

int clr_elt_this_direct(void) { return atomic_load_explicit(&g_reg[REG_RDI].direct, memory_order_relaxed); }
int clr_elt_arg1_direct(void) { return atomic_load_explicit(&g_reg[REG_RSI].direct, memory_order_relaxed); }
int clr_elt_ret_direct(void) { return atomic_load_explicit(&g_reg[REG_RAX].direct, memory_order_relaxed); }

void clr_elt_this_reset(void) {
    for (int k = 0; k < REG_COUNT; k++) {
        atomic_store_explicit(&g_reg[k].agreed, 0, memory_order_relaxed);
        atomic_store_explicit(&g_reg[k].direct, 0, memory_order_relaxed);
    }
}

// The stub's data (PROFILE_PLATFORM_SPECIFIC_DATA) of an ELT info block, 0
// when it has none.
static inline uintptr_t stub_data(uintptr_t elt) { return elt != 0 ? *(const uintptr_t *)elt : 0; }

static inline const uintptr_t *saved_reg(uintptr_t data, uint32_t k) { return (const uintptr_t *)(data + g_reg_at[k]); }

// Whether register k is read directly, for a call whose stub saved data:
// only when its data is known and every answer so far agreed.
static inline int reg_direct(uintptr_t data, uint32_t k) {
    return data != 0 && atomic_load_explicit(&g_reg[k].direct, memory_order_relaxed) > 0;
}

// Records whether the runtime's answer for register k agreed with the
// stub's saved register: ELT_REG_CHECKS agreements in a row turn the direct
// read on, one disagreement turns it off for the process.
static void reg_judge(uintptr_t data, uint32_t k, int agrees) {
    if (data == 0 || atomic_load_explicit(&g_reg[k].direct, memory_order_relaxed) != 0)
        return;
    if (!agrees) {
        atomic_store_explicit(&g_reg[k].direct, -1, memory_order_relaxed);
    } else if (atomic_fetch_add_explicit(&g_reg[k].agreed, 1, memory_order_relaxed) + 1 >= ELT_REG_CHECKS) {
        int checking = 0;
        atomic_compare_exchange_strong_explicit(&g_reg[k].direct, &checking, 1, memory_order_relaxed, memory_order_relaxed);
    }
}

// Argument k (REG_RDI, REG_RSI) as a word: the stub's saved register once
// agreed, else the runtime's answer, which is checked against it.
static int reg_arg(const clr_runtime *rt, uintptr_t fid, uintptr_t elt, uint32_t k, uintptr_t *out) {
    uintptr_t data = stub_data(elt);
    if (reg_direct(data, k)) {
        *out = *saved_reg(data, k);
        return 1;
    }
    uintptr_t v = 0;
    if (!clr_elt_arg(rt, fid, elt, k, &v, sizeof v))
        return 0;
    reg_judge(data, k, data != 0 && *saved_reg(data, k) == v);
    *out = v;
    return 1;
}

uintptr_t clr_elt_this(const clr_runtime *rt, uintptr_t fid, uintptr_t elt) {
    uintptr_t self = 0;
    return reg_arg(rt, fid, elt, REG_RDI, &self) ? self : 0;
}

int clr_elt_arg1_word(const clr_runtime *rt, uintptr_t fid, uintptr_t elt, uintptr_t *out) { return reg_arg(rt, fid, elt, REG_RSI, out); }

int clr_elt_saved_words(uintptr_t elt, uintptr_t out[2]) {
    uintptr_t data = stub_data(elt);
    if (data == 0)
        return 0;
    out[0] = *saved_reg(data, REG_RDI);
    out[1] = *saved_reg(data, REG_RSI);
    return 1;
}

// The runtime's answer is where the value is (GetReturnBufferAddr): for a
// bool, the rax its Leave stub saved. It agrees when it is that very word,
// so the byte read directly is the one the runtime would have pointed at.
int clr_elt_ret_bool(const clr_runtime *rt, uintptr_t fid, uintptr_t elt) {
    uintptr_t data = stub_data(elt);
    // The stub's saved registers: its own stack, always readable.
    if (reg_direct(data, REG_RAX))
        return *(const uint8_t *)saved_reg(data, REG_RAX) != 0;
    COR_PRF_FRAME_INFO frame = 0;
    COR_PRF_FUNCTION_ARGUMENT_RANGE rv = {0, 0};
    if (clr_leave_ret_get(rt, fid, elt, &frame, &rv) < 0 || rv.startAddress == 0 || rv.length < 1)
        return -1;
    reg_judge(data, REG_RAX, data != 0 && rv.startAddress == (UINT_PTR)saved_reg(data, REG_RAX));
    return *(const uint8_t *)rv.startAddress != 0;
}

// Argument layouts (eltargs.h). Plain loads of n, off and len once state
// reads ARG_LAYOUT_SET (acquire): the one thread that claimed the layout
// wrote them before it published that state, and never writes them again.

static _Atomic uint64_t g_layouts_trusted, g_layouts_refused;

void clr_arg_layout_counts(uint64_t *trusted, uint64_t *refused) {
    *trusted = atomic_load_explicit(&g_layouts_trusted, memory_order_relaxed);
    *refused = atomic_load_explicit(&g_layouts_refused, memory_order_relaxed);
}

void clr_arg_layout_counts_reset(void) {
    atomic_store_explicit(&g_layouts_trusted, 0, memory_order_relaxed);
    atomic_store_explicit(&g_layouts_refused, 0, memory_order_relaxed);
}

int clr_arg_layout_trusted(const clr_arg_layout *lay) {
    return atomic_load_explicit(&lay->state, memory_order_acquire) == ARG_LAYOUT_SET &&
           atomic_load_explicit(&lay->agreed, memory_order_relaxed) >= ARG_LAYOUT_CHECKS;
}

int clr_arg_layout_unlearned(const clr_arg_layout *lay) {
    return atomic_load_explicit(&lay->state, memory_order_relaxed) == ARG_LAYOUT_LEARNING;
}

void clr_arg_layout_refuse(clr_arg_layout *lay) {
    uint8_t learning = ARG_LAYOUT_LEARNING;
    if (atomic_compare_exchange_strong_explicit(&lay->state, &learning, ARG_LAYOUT_OFF, memory_order_relaxed, memory_order_relaxed))
        atomic_fetch_add_explicit(&g_layouts_refused, 1, memory_order_relaxed);
}

// Where range i of a layout is, for a call whose stub saved data.
static inline UINT_PTR layout_at(const clr_arg_layout *lay, uintptr_t data, uint32_t i) {
    return (UINT_PTR)(data + lay->off[i]);
}

// The offset in data of a range of the runtime's answer that a layout can
// hold (a word the stub saved), or -1. At Enter (this_ok), range 0 of an
// instance method is given as a copy of the saved rdi in the runtime's own
// block (clr_elt_this): it is held as rdi when it has that value
// (*this_word).
static int layout_offset(uintptr_t data, const COR_PRF_FUNCTION_ARGUMENT_RANGE *r, uint32_t i, int this_ok, int *this_word) {
    *this_word = 0;
    if (r->length == 0 || r->length > 8)
        return -1;
    if ((r->startAddress == data + ELT_RAX) ||
        (r->startAddress >= data + ELT_FLT0 && r->startAddress + r->length <= data + ELT_SAVED_END))
        return (int)(r->startAddress - data);
    uintptr_t v = 0;
    if (this_ok && i == 0 && r->length == 8 && clr_guarded_read(&v, r->startAddress, 8) && v == *saved_reg(data, REG_RDI)) {
        *this_word = 1;
        return ELT_RDI;
    }
    return -1;
}

// Whether the runtime's answer (n ranges r) is the layout's, for a call
// whose stub saved data.
static int layout_agrees(const clr_arg_layout *lay, uintptr_t data, const COR_PRF_FUNCTION_ARGUMENT_RANGE *r, uint32_t n, int this_ok) {
    if (n != lay->n)
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        int this_word = 0;
        int off = layout_offset(data, &r[i], i, this_ok, &this_word);
        if (off != lay->off[i] || r[i].length != lay->len[i] || this_word != (i == 0 && lay->this_word))
            return 0;
    }
    return 1;
}

// Takes the runtime's answer (n ranges r, for a call whose stub saved
// data) as the first layout of the method, or as a check of it.
static void layout_learn(clr_arg_layout *lay, uintptr_t data, const COR_PRF_FUNCTION_ARGUMENT_RANGE *r, uint32_t n, int this_ok) {
    uint8_t st = atomic_load_explicit(&lay->state, memory_order_acquire);
    if (st == ARG_LAYOUT_SET) {
        uint8_t set = ARG_LAYOUT_SET;
        if (!layout_agrees(lay, data, r, n, this_ok)) {
            if (atomic_compare_exchange_strong_explicit(&lay->state, &set, ARG_LAYOUT_OFF, memory_order_relaxed, memory_order_relaxed))
                atomic_fetch_add_explicit(&g_layouts_refused, 1, memory_order_relaxed);
        } else if (atomic_fetch_add_explicit(&lay->agreed, 1, memory_order_relaxed) + 1 == ARG_LAYOUT_CHECKS) {
            atomic_fetch_add_explicit(&g_layouts_trusted, 1, memory_order_relaxed);
        }
        return;
    }
    uint8_t learning = ARG_LAYOUT_LEARNING;
    if (st != ARG_LAYOUT_LEARNING ||
        !atomic_compare_exchange_strong_explicit(&lay->state, &learning, ARG_LAYOUT_CLAIMED, memory_order_acquire, memory_order_relaxed))
        return;
    uint8_t next = ARG_LAYOUT_OFF;
    if (n <= ARG_LAYOUT_MAX) {
        next = ARG_LAYOUT_SET;
        for (uint32_t i = 0; i < n && next == ARG_LAYOUT_SET; i++) {
            int this_word = 0;
            int off = layout_offset(data, &r[i], i, this_ok, &this_word);
            if (off < 0)
                next = ARG_LAYOUT_OFF;
            lay->off[i] = (uint8_t)off;
            lay->len[i] = (uint8_t)r[i].length;
            if (i == 0)
                lay->this_word = (uint8_t)this_word;
        }
        lay->n = (uint8_t)n;
        atomic_store_explicit(&lay->agreed, 1, memory_order_relaxed);
    }
    if (next == ARG_LAYOUT_OFF)
        atomic_fetch_add_explicit(&g_layouts_refused, 1, memory_order_relaxed);
    atomic_store_explicit(&lay->state, next, memory_order_release);
}

HRESULT clr_enter_args_learned(const clr_runtime *rt, clr_arg_layout *lay, int has_this, uintptr_t fid, uintptr_t elt,
                               COR_PRF_FRAME_INFO *frame, clr_enter_args *args, clr_elt_fp *fp) {
    uintptr_t data = lay != NULL ? stub_data(elt) : 0;
    if (data != 0 && clr_arg_layout_trusted(lay)) {
        // The stub's saved registers are its own stack: always readable.
        COR_PRF_FUNCTION_ARGUMENT_RANGE *r = args->info.ranges;
        ULONG total = 0;
        for (uint32_t i = 0; i < lay->n; i++) {
            r[i].startAddress = layout_at(lay, data, i);
            r[i].length = lay->len[i];
            total += lay->len[i];
        }
        args->info.numRanges = lay->n;
        args->info.totalArgumentSize = total;
        *frame = 0;
        fp->at = NULL;
        return S_OK;
    }
    HRESULT hr = clr_enter_args_get(rt, fid, elt, frame, args, fp);
    if (hr >= 0 && data != 0)
        layout_learn(lay, data, args->info.ranges, args->info.numRanges, has_this);
    return hr;
}

HRESULT clr_leave_ret_learned(const clr_runtime *rt, clr_arg_layout *lay, uintptr_t fid, uintptr_t elt, COR_PRF_FRAME_INFO *frame,
                              COR_PRF_FUNCTION_ARGUMENT_RANGE *rv) {
    uintptr_t data = lay != NULL ? stub_data(elt) : 0;
    if (data != 0 && clr_arg_layout_trusted(lay) && lay->n == 1) {
        rv->startAddress = layout_at(lay, data, 0);
        rv->length = lay->len[0];
        *frame = 0;
        return S_OK;
    }
    HRESULT hr = clr_leave_ret_get(rt, fid, elt, frame, rv);
    if (hr >= 0 && data != 0)
        layout_learn(lay, data, rv, 1, 0);
    return hr;
}
