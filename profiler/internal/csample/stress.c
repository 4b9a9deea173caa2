// stress.c: see stress.h. Stands in for slots.c: clr_slot_count and
// clr_slot_decision_seq are what Go reads to know a replaced strategy block
// is no longer in use.
#include <pthread.h>
#include <stdatomic.h>

#include "stress.h"

#define MAX_THREADS 8

static clr_slot slots[MAX_THREADS];
static _Atomic uint32_t nslots;
static pthread_t threads[MAX_THREADS];
static _Atomic int stop;
static _Atomic uint64_t violations, decisions;

uint32_t clr_slot_count(void) { return atomic_load(&nslots); }
uint64_t clr_slot_decision_seq(uint32_t i) {
    return i < clr_slot_count() ? atomic_load_explicit(&slots[i].decision_seq, memory_order_acquire) : 0;
}

static uint64_t generation(const clr_strategy *st) { return *(const volatile uint64_t *)&st->generation; }

// Decides as the hook does (clr_strategy_enter/exit), holding the block a
// while, and checks it was not retired meanwhile.
static void *reader(void *arg) {
    clr_slot *s = arg;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        uint64_t saved;
        clr_strategy *st = clr_strategy_enter(&s->decision_seq, &clr_strategy_ptr, clr_strategy_reader_fence, &saved);
        if (st != NULL) {
            uint64_t bad = generation(st) == STRESS_POISON;
            volatile uint64_t x = 0;
            for (uint32_t i = 0; i < 200; i++)
                x += ((const volatile clr_method_sampling *)&st->methods[i % st->n])->bound;
            bad |= generation(st) == STRESS_POISON;
            if (bad)
                atomic_fetch_add(&violations, 1);
        }
        clr_strategy_exit(&s->decision_seq, saved);
        atomic_fetch_add_explicit(&decisions, 1, memory_order_relaxed);
    }
    return NULL;
}

int stress_start(int n) {
    if (n > MAX_THREADS)
        n = MAX_THREADS;
    atomic_store(&stop, 0);
    atomic_store(&violations, 0);
    atomic_store(&decisions, 0);
    for (int i = 0; i < n; i++) {
        atomic_store(&nslots, (uint32_t)i + 1);
        if (pthread_create(&threads[i], NULL, reader, &slots[i]) != 0)
            return -1;
    }
    return 0;
}

void stress_stop(void) {
    atomic_store(&stop, 1);
    for (uint32_t i = 0; i < atomic_load(&nslots); i++)
        pthread_join(threads[i], NULL);
    atomic_store(&nslots, 0);
}

uint64_t stress_violations(void) { return atomic_load(&violations); }
uint64_t stress_decisions(void) { return atomic_load(&decisions); }
void stress_poison(clr_strategy *st) { *(volatile uint64_t *)&st->generation = STRESS_POISON; }
