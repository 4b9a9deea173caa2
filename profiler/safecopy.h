// safecopy.h: the fault-tolerant copy (safecopy_amd64.S).
#ifndef CLROTEL_SAFECOPY_H
#define CLROTEL_SAFECOPY_H

#include <stdint.h>

// 0, or -1 if the source faulted.
int clr_safe_copy(void *dst, const void *src, uintptr_t n);
// A guarded read of n bytes at src into dst: 1 if it was read (an address
// below 4096 is never read).
static inline int clr_guarded_read(void *dst, uintptr_t src, uintptr_t n) {
    return src >= 4096 && clr_safe_copy(dst, (const void *)src, n) == 0;
}

#endif
