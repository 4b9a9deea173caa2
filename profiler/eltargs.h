// eltargs.h: the one reader of a call's arguments in the Enter hook
// (eltargs.c): GetFunctionEnter3Info, with the floating-point registers the
// runtime's stub saved kept intact around it, and an argument (`this`
// first) read from its range. The value reader, the exact generic types,
// the async and closure fields, the queuing methods' callbacks, work items
// and Activity.Stop all ask through it.
#ifndef CLROTEL_ELTARGS_H
#define CLROTEL_ELTARGS_H

#include <stdint.h>
#include <string.h>

#include "arglayout.h"
#include "clrapi.h"
#include "clrrt.h"

// Argument ranges asked of GetFunctionEnter3Info: room for every argument
// of any method the hooks meet (`this` first). A shorter buffer makes the
// call fail for a method with more arguments, `this` included, so every
// caller sizes its buffer with this.
enum { ELT_MAX_RANGES = 64 };

// Before .NET 5 (Linux x64), asking the runtime for a call's arguments
// (GetFunctionEnter3Info) copies each struct passed in registers into a
// buffer right after the ELT stub's PROFILE_PLATFORM_SPECIFIC_DATA, where
// the stub (ProfileEnterNaked) has also saved xmm0 and xmm1, 32 bytes at
// (data + 0xb8) & -16, to reload them after the hook: the method then got
// the struct's bytes for its double argument (found by the program
// generator: TDec(-4.5m, 1.25) saw 0x80010000). On such runtimes those 32
// bytes are saved before the question and put back once the arguments are
// read. COR_PRF_ELT_INFO points at a block whose first word is the data.
// Go turns the repair on (main.go) on such runtimes.
enum { ELT_FP_SAVE_END = 0xb8, ELT_FP_SAVE_SIZE = 32 };
void clr_elt_repair(int on);

// The ranges GetFunctionEnter3Info fills: the runtime declares ranges[1]
// and fills as many as it reports, into the room given after it.
typedef struct clr_enter_args {
    COR_PRF_FUNCTION_ARGUMENT_INFO info;
    COR_PRF_FUNCTION_ARGUMENT_RANGE more[ELT_MAX_RANGES - 1];
} clr_enter_args;

// The stub's saved floating-point registers while the arguments are read:
// where they are (NULL: nothing saved) and their bytes.
typedef struct clr_elt_fp {
    uint8_t *at;
    uint8_t bytes[ELT_FP_SAVE_SIZE];
} clr_elt_fp;

// Asks rt for the frame and the argument ranges of the call fid being
// entered (elt: the hook's COR_PRF_ELT_INFO), having saved the registers the
// question may overwrite. The caller reads what it needs through the
// ranges, then puts the registers back with clr_enter_args_done: a struct
// passed in registers is a copy in that same memory, so nothing may be read
// through a range after it. Out of line: the hot-path check allows it the
// call through the runtime's vtable.
HRESULT clr_enter_args_get(const clr_runtime *rt, uintptr_t fid, uintptr_t elt, COR_PRF_FRAME_INFO *frame,
                           clr_enter_args *args, clr_elt_fp *fp);

// Asks rt where the return value of the call fid leaving is
// (GetFunctionLeave3Info). Out of line, as clr_enter_args_get.
HRESULT clr_leave_ret_get(const clr_runtime *rt, uintptr_t fid, uintptr_t elt, COR_PRF_FRAME_INFO *frame,
                          COR_PRF_FUNCTION_ARGUMENT_RANGE *rv);

static inline void clr_enter_args_done(const clr_elt_fp *fp) {
    if (fp->at != NULL)
        memcpy(fp->at, fp->bytes, ELT_FP_SAVE_SIZE);
}

// clr_enter_args_get for a method whose layout lay keeps (NULL: none), an
// instance method when has_this. Asking walks the method's
// signature (a few hundred ns a call); the answer always points at the
// same places of the block the stub saved, relative to that block, for a
// method whose arguments are words in registers. So the first answer is
// kept, the next ARG_LAYOUT_CHECKS are checked against it, and once they
// all agreed the ranges are made from the layout without asking, with no
// frame (*frame = 0): a caller that needs the frame (shared generic code)
// refuses the layout first (clr_arg_layout_refuse). A range anywhere else (the caller's stack, a copy the
// runtime makes of a struct while it answers), more than ARG_LAYOUT_MAX of
// them, or one disagreement turns the method's layout off for good.
HRESULT clr_enter_args_learned(const clr_runtime *rt, clr_arg_layout *lay, int has_this, uintptr_t fid, uintptr_t elt,
                               COR_PRF_FRAME_INFO *frame, clr_enter_args *args, clr_elt_fp *fp);

// GetFunctionLeave3Info's return value range on the same terms: a return in
// rax or xmm0 is read where the Leave stub saved it once enough answers
// agreed. Not a float's: the runtime answers with the saved rax after it
// copied xmm0 there (GetReturnBufferAddr, amd64/profiler.cpp), so that word
// holds the value only while it is asked; its caller passes NULL.
HRESULT clr_leave_ret_learned(const clr_runtime *rt, clr_arg_layout *lay, uintptr_t fid, uintptr_t elt, COR_PRF_FRAME_INFO *frame,
                              COR_PRF_FUNCTION_ARGUMENT_RANGE *rv);

// Whether lay's ranges are read without asking the runtime (tests).
int clr_arg_layout_trusted(const clr_arg_layout *lay);

// Whether lay has not taken an answer yet; and its refusal, for a method
// whose values need what only an answer gives (the frame, a float return's
// copy): it then keeps asking, counted with the others refused.
int clr_arg_layout_unlearned(const clr_arg_layout *lay);
void clr_arg_layout_refuse(clr_arg_layout *lay);

// How many methods' layouts came to be read without asking, and how many
// were refused (the exit report); and a reset of both (tests).
void clr_arg_layout_counts(uint64_t *trusted, uint64_t *refused);
void clr_arg_layout_counts_reset(void);

// The first size bytes of argument idx (0: `this`, for an instance method)
// of the call fid being entered, into out: 1, or 0 when it cannot be read.
int clr_elt_arg(const clr_runtime *rt, uintptr_t fid, uintptr_t elt, uint32_t idx, void *out, uint32_t size);

// The `this` of the instance method fid being entered: for a state
// machine's MoveNext an object reference (a class) or a managed pointer to
// the struct (in the kickoff method's frame, or in the task's box); for a
// closure's, a work item's or an Activity's method the object. 0 when it
// cannot be read. A static method's argument 0, when it is a reference
// and no hidden argument precedes it, is the same word (queue.c).
//
// At Enter the runtime's answer is the rdi its stub saved in the block
// COR_PRF_ELT_INFO leads to (ProfileArgIterator::GetThis on Unix x64:
// PROFILE_PLATFORM_SPECIFIC_DATA.rdi, at ELT_RDI in 3.1 through 8), and
// asking for it (GetFunctionEnter3Info) walks the method's signature: a
// few hundred ns on every work item and state machine step. The word is
// read directly once the first ELT_REG_CHECKS answers of the runtime all
// agreed with it; one that does not (another layout) turns the direct read
// off for the process.
enum { ELT_RDI = 0x78, ELT_REG_CHECKS = 64 };
uintptr_t clr_elt_this(const clr_runtime *rt, uintptr_t fid, uintptr_t elt);

// What the call fid leaving returned, a bool (elt: the Leave hook's
// COR_PRF_ELT_INFO): 1 true, 0 false, -1 not known.
//
// The runtime's answer (GetFunctionLeave3Info, a few hundred ns on every
// iterator step) is the rax its Leave stub saved
// (PROFILE_PLATFORM_SPECIFIC_DATA.rax, at ELT_RAX in 3.1 through 8), read
// directly on the terms `this` is: once ELT_REG_CHECKS of its answers
// pointed at that word.
enum { ELT_RAX = 0x28 };

// The words the stubs save before they call a hook and the runtime only
// reads as it answers (PROFILE_PLATFORM_SPECIFIC_DATA on Unix x64, 3.1
// through 8): xmm0-7 from ELT_FLT0, then rdi through r9 up to
// ELT_SAVED_END, and rax. A layout holds only ranges there. Elsewhere the
// answer may point at what the runtime writes while it answers, which a
// layout must not outlive: the buffer past the block (a struct passed in
// registers, copied), the hidden argument between rax and xmm0 (filled in
// for shared generic code), the caller's stack.
enum { ELT_FLT0 = 0x38, ELT_SAVED_END = 0xa8 };
int clr_elt_ret_bool(const clr_runtime *rt, uintptr_t fid, uintptr_t elt);

// Argument 1 of the call fid being entered (the first after `this`) as a
// word, when it is one passed in an integer register (a reference): the
// rsi the stub saved after rdi, read directly as `this` is, on agreement
// with the runtime's answers of its own. 0 when it cannot be read.
int clr_elt_arg1_word(const clr_runtime *rt, uintptr_t fid, uintptr_t elt, uintptr_t *out);

// The words the stub saved from rdi and rsi, to compare only (hooks.c,
// run_callee): read without the runtime's agreement, since a word never
// dereferenced can be wrong without harm. 0 when the stub saved none.
int clr_elt_saved_words(uintptr_t elt, uintptr_t out[2]);

// Whether `this`, argument 1 and a bool return are read directly: 1 on,
// -1 off, 0 still checking; and a reset of all to checking (a new
// runtime, a test).
int clr_elt_this_direct(void);
int clr_elt_arg1_direct(void);
int clr_elt_ret_direct(void);
void clr_elt_this_reset(void);

#endif
