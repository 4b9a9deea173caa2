#ifndef CREADER_FAKE_H
#define CREADER_FAKE_H
#include <stdint.h>
#include "values.h"

// The one module the fake runtime reported loading.
#define FAKE_MODULE 0x4d4f44u

typedef struct fake_args {
    uint32_t n;
    uint64_t slots[8];
    // What GetFunctionLeave3Info answers: the rax the Leave stub saved
    // (ret_in_rax), else ret, a word of its own.
    int ret_in_rax;
    uint64_t ret;
    // Where GetFunctionEnter3Info's range i points when at[i] is not 0
    // (else at slots[i]), and where GetFunctionLeave3Info's does when
    // ret_at is not 0.
    uint64_t at[8];
    uint64_t ret_at;
    uint32_t ret_len; // the return range's length (0: 1)
} fake_args;

// How often the fake runtime was asked for a call's arguments and return.
uint32_t fake_enter_calls(void);
uint32_t fake_leave_calls(void);

void fake_init(const clr_value_limits *lim);
void fake_set_args(const fake_args *a);
void *fake_unmapped_page(void);

// The fake runtime, for the readers that are handed one.
struct clr_runtime;
const struct clr_runtime *fake_runtime(void);
#endif
