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
    if (rt->vtbl->GetFunctionLeave3Info(rt->info, fid, (COR_PRF_ELT_INFO)elt, &frame, &rv) < 0 || rv.startAddress == 0 ||
        rv.length < 1)
        return -1;
    reg_judge(data, REG_RAX, data != 0 && rv.startAddress == (UINT_PTR)saved_reg(data, REG_RAX));
    return *(const uint8_t *)rv.startAddress != 0;
}
