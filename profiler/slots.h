// slots.h: the slot table (slots.c): one slot per thread that ran a traced
// method, each holding that thread's capture ring and shadow stack
// (clr_slot, capture.h). The hooks claim and write slots; the drainer (Go),
// the ReJIT thread and the strategy's reclamation read them.
//
// A leaf: components get the table at their init. The functions capture.h
// declares for Go (clr_slots, clr_slot_count, clr_slot_release, the summed
// counters) read the same table.
#ifndef CLROTEL_SLOTS_H
#define CLROTEL_SLOTS_H

#include <pthread.h>
#include <stdint.h>

#include "capture.h"

typedef struct clr_slot_table {
    clr_slot *slots;        // max_threads of them, allocated once
    _Atomic uint32_t hw;    // slots ever used: readers scan [0, hw)
    uint32_t max_threads;
    uint32_t ring_size;     // bytes, a power of two (ring.h: with burst space)
    uint32_t ring_soft;     // its resident part
    uint32_t stack_cap;     // shadow-stack frames
    pthread_key_t exit_key; // marks a thread's slot dead when it exits
} clr_slot_table;

// Allocates the table for Go's capture configuration (at Go's Initialize,
// before any hook records). NULL when the configuration is refused or the
// memory cannot be had.
clr_slot_table *clr_slot_table_init(const clr_capture_config *cfg);

// Claims a free slot for the calling thread and sets it up (its ring and
// stack mapped on first use, its random seed, its thread id): system calls
// once per thread, never per call. NULL when every slot is taken.
clr_slot *clr_slot_claim(clr_slot_table *t);

#endif
