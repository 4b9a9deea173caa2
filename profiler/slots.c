// slots.c: the slot table (slots.h).
#include <stddef.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/syscall.h>

#include "slots.h"

static clr_slot_table g_table;

// Thread exit: glibc runs key destructors on every exiting pthread, CLR
// threads included. The slot is handed to Go, which drains and frees it.
static void slot_thread_exit(void *p) {
    clr_slot *s = p;
    atomic_store_explicit(&s->state, SLOT_DEAD, memory_order_release);
}

clr_slot_table *clr_slot_table_init(const clr_capture_config *cfg) {
    if (cfg->ring_size < 4096 || (cfg->ring_size & (cfg->ring_size - 1)) != 0 || cfg->ring_soft < 4096 ||
        cfg->ring_soft > cfg->ring_size)
        return NULL;
    g_table.max_threads = cfg->max_threads;
    g_table.ring_size = cfg->ring_size;
    g_table.ring_soft = cfg->ring_soft;
    g_table.stack_cap = cfg->stack_cap;
    g_table.slots = calloc(cfg->max_threads, sizeof(clr_slot));
    if (g_table.slots == NULL)
        return NULL;
    if (pthread_key_create(&g_table.exit_key, slot_thread_exit) != 0)
        return NULL;
    return &g_table;
}

clr_slot *clr_slot_claim(clr_slot_table *t) {
    for (uint32_t i = 0; i < t->max_threads; i++) {
        clr_slot *s = &t->slots[i];
        uint32_t want = SLOT_FREE;
        if (!atomic_compare_exchange_strong(&s->state, &want, SLOT_LIVE))
            continue;
        if (s->data == NULL) {
            // First use of this slot: map its ring and shadow stack once
            // (address space: a page is backed once written, ring.h).
            size_t bytes = (size_t)t->ring_size + (size_t)t->stack_cap * sizeof(clr_frame);
            void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (m == MAP_FAILED) {
                atomic_store(&s->state, SLOT_FREE);
                return NULL;
            }
            s->data = m;
            s->stack = (clr_frame *)((uint8_t *)m + t->ring_size);
        }
        s->os_tid = (uint32_t)syscall(SYS_gettid);
        if (getrandom(s->rng, sizeof s->rng, GRND_NONBLOCK) != sizeof s->rng) {
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            s->rng[0] = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)s;
            s->rng[1] = (uint64_t)s->os_tid * 0xBF58476D1CE4E5B9ull ^ (uint64_t)ts.tv_sec;
        }
        if ((s->rng[0] | s->rng[1]) == 0)
            s->rng[0] = 1;
        atomic_store_explicit(&s->span_salt, clr_span_id(s->rng[0], s->rng[1]), memory_order_relaxed);
        // Publish the slot to Go only once it is fully set up.
        uint32_t hw = atomic_load(&t->hw);
        while (hw < i + 1 && !atomic_compare_exchange_weak(&t->hw, &hw, i + 1)) {
        }
        pthread_setspecific(t->exit_key, s);
        return s;
    }
    return NULL;
}

// ---- for Go (capture.h) ----------------------------------------------------

void clr_slot_release(clr_slot *s) {
    // Called by Go once the dead slot is drained; the memory stays mapped.
    atomic_store_explicit(&s->head, 0, memory_order_relaxed);
    atomic_store_explicit(&s->tail, 0, memory_order_relaxed);
    s->wrap_pos = 0;
    s->wrap_len = 0;
    s->wrap_jumped = 0;
    s->depth = 0;
    s->reserved = 0;
    s->unwritten_from = 0;
    s->trace_spans = 0;
    s->trace_truncated = 0;
    s->unwinding = 0;
    atomic_store_explicit(&s->state, SLOT_FREE, memory_order_release);
}

// Sums a per-slot counter (slots keep their counts when reused).
static uint64_t sum_slots(size_t offset) {
    uint64_t n = 0, hw = atomic_load(&g_table.hw);
    for (uint32_t i = 0; g_table.slots != NULL && i < hw; i++)
        n += atomic_load_explicit((_Atomic uint64_t *)((char *)&g_table.slots[i] + offset), memory_order_relaxed);
    return n;
}

uint64_t clr_unsampled_roots(void) { return sum_slots(offsetof(clr_slot, unsampled)); }
uint64_t clr_rate_limited_roots(void) { return sum_slots(offsetof(clr_slot, rate_limited)); }
uint64_t clr_folded_calls(void) { return sum_slots(offsetof(clr_slot, folded)); }
uint64_t clr_shed_traces(void) { return sum_slots(offsetof(clr_slot, shed_traces)); }
uint64_t clr_shed_calls(void) { return sum_slots(offsetof(clr_slot, shed_calls)); }
uint64_t clr_record_ns(void) { return sum_slots(offsetof(clr_slot, record_ns)); }

clr_slot *clr_slots(void) { return g_table.slots; }
uint32_t clr_slot_count(void) { return atomic_load_explicit(&g_table.hw, memory_order_acquire); }
uint32_t clr_ring_size(void) { return g_table.ring_size; }
uint32_t clr_ring_soft(void) { return g_table.ring_soft; }
uint32_t clr_stack_cap(void) { return g_table.stack_cap; }

uint64_t clr_slot_decision_seq(uint32_t i) {
    clr_slot *s = g_table.slots;
    if (s == NULL || i >= clr_slot_count())
        return 0;
    return atomic_load_explicit(&s[i].decision_seq, memory_order_acquire);
}
