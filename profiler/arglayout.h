// arglayout.h: where a method's arguments are, once the runtime has said
// so often enough (eltargs.c learns and reads it).
#ifndef CLROTEL_ARGLAYOUT_H
#define CLROTEL_ARGLAYOUT_H

#include <stdatomic.h>
#include <stdint.h>

// The argument ranges of one method kept, `this` first (a method with more
// keeps asking the runtime), and how many of the runtime's answers must
// agree with a layout before it is read without asking.
enum { ARG_LAYOUT_MAX = 8, ARG_LAYOUT_CHECKS = 16 };

// state: ARG_LAYOUT_LEARNING until a thread claims the first answer,
// ARG_LAYOUT_SET once it wrote it (agreed then counts the answers that
// matched it), ARG_LAYOUT_OFF for good once one did not, or the answer was
// not one a layout can hold.
enum { ARG_LAYOUT_LEARNING = 0, ARG_LAYOUT_CLAIMED = 1, ARG_LAYOUT_SET = 2, ARG_LAYOUT_OFF = 3 };

typedef struct clr_arg_layout {
    _Atomic uint32_t agreed;
    _Atomic uint8_t state;
    uint8_t n;         // ranges
    uint8_t this_word; // range 0 is `this`: the runtime's copy of the saved rdi
    uint8_t pad;
    uint8_t off[ARG_LAYOUT_MAX]; // each range's offset in the stub's saved block
    uint8_t len[ARG_LAYOUT_MAX];
} clr_arg_layout;

#endif
