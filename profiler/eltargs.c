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

// Per saved register (rdi, rsi): whether it is read directly (1 on, -1
// off, 0 checking) and how many of the runtime's answers agreed with it.
// Each is judged on its own: rsi holds argument 1 only when that is a
// word passed in an integer register.
static struct {
    _Atomic int direct;
    _Atomic uint32_t agreed;
} g_reg[2];

int clr_elt_this_direct(void) { return atomic_load_explicit(&g_reg[0].direct, memory_order_relaxed); }
int clr_elt_arg1_direct(void) { return atomic_load_explicit(&g_reg[1].direct, memory_order_relaxed); }

void clr_elt_this_reset(void) {
    for (int k = 0; k < 2; k++) {
        atomic_store_explicit(&g_reg[k].agreed, 0, memory_order_relaxed);
        atomic_store_explicit(&g_reg[k].direct, 0, memory_order_relaxed);
    }
}

static inline uintptr_t saved_reg(uintptr_t data, uint32_t k) { return *(const uintptr_t *)(data + ELT_RDI + 8 * k); }

// Argument k (0: rdi, 1: rsi) as a word: the stub's saved register once
// agreed, else the runtime's answer, which is checked against it.
static int reg_arg(const clr_runtime *rt, uintptr_t fid, uintptr_t elt, uint32_t k, uintptr_t *out) {
    uintptr_t data = elt != 0 ? *(const uintptr_t *)elt : 0;
    int direct = atomic_load_explicit(&g_reg[k].direct, memory_order_relaxed);
    if (direct > 0 && data != 0) {
        *out = saved_reg(data, k);
        return 1;
    }
    uintptr_t v = 0;
    if (!clr_elt_arg(rt, fid, elt, k, &v, sizeof v))
        return 0;
    if (direct == 0 && data != 0) {
        if (saved_reg(data, k) != v) {
            atomic_store_explicit(&g_reg[k].direct, -1, memory_order_relaxed);
        } else if (atomic_fetch_add_explicit(&g_reg[k].agreed, 1, memory_order_relaxed) + 1 >= ELT_THIS_CHECKS) {
            int checking = 0;
            atomic_compare_exchange_strong_explicit(&g_reg[k].direct, &checking, 1, memory_order_relaxed, memory_order_relaxed);
        }
    }
    *out = v;
    return 1;
}

uintptr_t clr_elt_this(const clr_runtime *rt, uintptr_t fid, uintptr_t elt) {
    uintptr_t self = 0;
    return reg_arg(rt, fid, elt, 0, &self) ? self : 0;
}

int clr_elt_arg1_word(const clr_runtime *rt, uintptr_t fid, uintptr_t elt, uintptr_t *out) { return reg_arg(rt, fid, elt, 1, out); }

int clr_elt_ret_bool(const clr_runtime *rt, uintptr_t fid, uintptr_t elt) {
    COR_PRF_FRAME_INFO frame = 0;
    COR_PRF_FUNCTION_ARGUMENT_RANGE rv = {0, 0};
    if (rt->vtbl->GetFunctionLeave3Info(rt->info, fid, (COR_PRF_ELT_INFO)elt, &frame, &rv) < 0 || rv.startAddress == 0 ||
        rv.length < 1)
        return -1;
    // The stub's saved return register: its own stack, always readable.
    return *(const uint8_t *)rv.startAddress != 0;
}
