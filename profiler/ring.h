// ring.h: the producer side of a thread's capture ring (capture.h's
// clr_slot: head, tail, data), written by the hooks on the slot's own
// thread without lock, allocation or system call. Package capture's Ring
// is the consumer; profiler/internal/ccapture runs this producer against
// it.
//
// A ring has two sizes. Its capacity (a power of two) is what may be
// written and not yet drained; its resident part, the first `soft` bytes,
// is where records go while the drainer keeps up. Past the resident part
// is burst space, reserved address space (mapped MAP_NORESERVE, slots.c)
// that takes a burst the drainer has not caught up with yet, instead of
// dropping it: a record that would cross the resident part's end goes
// back to the start of the ring (a pad record covers the rest) when the
// drainer is nearly caught up (at most an eighth of the resident part
// waits), and goes on into burst space when it is not. So burst pages are touched only under pressure,
// and the drainer gives them back to the kernel once it has read them
// (capture.Ring.SpillAfter). The first write to such a page is a page
// fault, as the first write to every resident page is.
#ifndef CLROTEL_RING_H
#define CLROTEL_RING_H

#include <stdint.h>
#include <stdatomic.h>

#include "capture.h"

// A pad record from offset off to the end of the ring: only its size and
// kind are written.
static inline void clr_ring_pad(clr_slot *s, uint64_t head, uint64_t off, uint64_t pad) {
    uint8_t *p = s->data + off;
    *(uint32_t *)p = (uint32_t)pad;
    *(uint16_t *)(p + 4) = REC_PAD;
    atomic_store_explicit(&s->head, head + pad, memory_order_release);
}

// Reserves size bytes (a multiple of 8) in s's ring of capacity cap whose
// resident part is its first soft bytes, keeping `keep` bytes free for
// exit records that are already promised. Returns where to write, NULL
// when the ring is full.
//
// Going back to the start early leaves a pad over the burst space: until
// the drainer has read that pad, the records written from the start may
// not pass what it has still to read before the pad. Should they reach it,
// the producer jumps over it into the pad's space (a pad from where it is
// to 8 bytes into the unread pad, whose header the drainer still needs),
// and goes on there. While the unread pad is jumped over, its bytes hold
// no record, so they do not count against the capacity.
static inline uint8_t *clr_ring_reserve(clr_slot *s, uint64_t cap, uint64_t soft, uint32_t size, uint32_t keep) {
    uint64_t head = atomic_load_explicit(&s->head, memory_order_relaxed);
    uint64_t tail = atomic_load_explicit(&s->tail, memory_order_acquire);
    uint64_t off = head & (cap - 1);
    uint64_t spare = 0; // an unread pad's bytes, once jumped over
    if (s->wrap_len != 0) {
        if (tail > s->wrap_pos)
            s->wrap_len = 0, s->wrap_jumped = 0; // read: the capacity is whole again
        else if (s->wrap_jumped)
            spare = s->wrap_len;
    }
    if (s->wrap_len == 0 && off != 0 && off + size > soft && head - tail + size + keep <= soft / 8) {
        // Back to the start when the drainer is nearly caught up.
        uint64_t pad = cap - off;
        if (head + pad + size + keep - tail <= cap) {
            s->wrap_pos = head;
            s->wrap_len = pad;
            clr_ring_pad(s, head, off, pad);
            return s->data;
        }
    }
    // Before a jump, 8 bytes stay free for its pad's header.
    uint64_t jump_room = s->wrap_len != 0 && !s->wrap_jumped ? 8 : 0;
    uint64_t pad = (cap - off < size) ? cap - off : 0;
    if (head + pad + size + keep + jump_room - tail <= cap + spare) {
        if (pad) {
            clr_ring_pad(s, head, off, pad);
            off = 0;
        }
        return s->data + off;
    }
    if (s->wrap_len != 0 && !s->wrap_jumped) {
        // Stopped by what is still to be read before the unread pad (at
        // wrap_pos, in the lap before this one): jump into its space.
        uint64_t to = (s->wrap_pos & (cap - 1)) + 8, jump = to - off;
        if (to > off && to + size <= cap && head + 8 - tail <= cap &&
            head + jump + size + keep - tail <= cap + s->wrap_len) {
            s->wrap_jumped = 1;
            clr_ring_pad(s, head, off, jump);
            return s->data + to;
        }
    }
    return NULL;
}

// Whether the ring has room for keep more bytes than it holds now.
static inline int clr_ring_room(const clr_slot *s, uint64_t cap, uint32_t keep) {
    uint64_t head = atomic_load_explicit(&s->head, memory_order_relaxed);
    uint64_t tail = atomic_load_explicit(&s->tail, memory_order_acquire);
    uint64_t spare = s->wrap_len != 0 && s->wrap_jumped && tail <= s->wrap_pos ? s->wrap_len : 0;
    return head + keep - tail <= cap + spare;
}

// Publishes the size bytes written where clr_ring_reserve said.
static inline void clr_ring_commit(clr_slot *s, uint32_t size) {
    uint64_t head = atomic_load_explicit(&s->head, memory_order_relaxed);
    atomic_store_explicit(&s->head, head + size, memory_order_release);
}

// Bytes of records written and not yet drained: an unread pad that took
// the producer back to the start early holds none.
static inline uint64_t clr_ring_used(const clr_slot *s) {
    uint64_t head = atomic_load_explicit(&s->head, memory_order_relaxed);
    uint64_t tail = atomic_load_explicit(&s->tail, memory_order_acquire);
    uint64_t used = head - tail;
    if (s->wrap_len != 0 && tail <= s->wrap_pos && used >= s->wrap_len)
        used -= s->wrap_len;
    return used;
}

#endif
