// lftable.h: the one lock-free hash table of the C layer, for caches the
// hooks and the runtime's callbacks read without a lock while other
// threads add to them: word-sized keys and values, open addressing over a
// fixed power-of-two array the caller owns (static, calloc'd once, or
// inside another structure), bounded probing, no allocation, no system
// call. A leaf: it includes only the C library.
//
// Keys are nonzero words other than LFT_GONE (FunctionIDs, ModuleIDs,
// ClassIDs: pointers). A slot's key goes once from 0 to a key (claimed by
// compare-and-swap), and from that key to LFT_GONE when it is removed;
// a slot is never reused, so a key is in at most one slot and a reader
// never sees a slot change to another key under it. A value of 0 means
// "not written yet": the claimer writes it after the key.
//
// Memory ordering: the key is claimed with a sequentially consistent
// compare-and-swap and read with acquire; the value is written with
// release and read with acquire. A reader that sees a nonzero value sees
// everything its writer did before lft_set (the data a value points to,
// or, for a caller keeping data beside the table by slot index, that
// data).
//
// Bounds: a key is looked for in `probes` slots from its home and no
// further; an insert that finds none free is counted in *full (which
// several tables may share) and fails. Removed slots are never reused:
// removals are rare here (unloaded modules), and each costs a slot.
#ifndef CLROTEL_LFTABLE_H
#define CLROTEL_LFTABLE_H

#include <stdatomic.h>
#include <stdint.h>

// A removed key's slot: it matches no key and is never claimed again.
#define LFT_GONE ((uintptr_t)1)

typedef struct lft_slot {
    _Atomic uintptr_t key; // 0: free; LFT_GONE: removed
    _Atomic uintptr_t val; // 0: not written yet
} lft_slot;

typedef struct lftable {
    lft_slot *slot;         // mask + 1 slots, zeroed
    uint32_t mask;          // slots - 1; slots a power of two
    uint32_t probes;        // slots looked at per key, at most mask + 1
    _Atomic uint64_t *full; // inserts that found no slot
} lftable;

// The slot a key's probing starts at: the keys are aligned pointers, whose
// low bits and clustering a multiply-xorshift finalizer spreads.
static inline uint32_t lft_home(const lftable *t, uintptr_t key) {
    uint64_t k = key;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (uint32_t)k & t->mask;
}

static inline int lft_key_ok(const lftable *t, uintptr_t key) { return t->slot != NULL && key != 0 && key != LFT_GONE; }

// The index of key's slot, or -1 when key is not in the table. No lock,
// no write: the hooks call it.
static inline int64_t lft_find(const lftable *t, uintptr_t key) {
    if (!lft_key_ok(t, key))
        return -1;
    uint32_t i = lft_home(t, key);
    for (uint32_t n = 0; n < t->probes; n++, i = (i + 1) & t->mask) {
        uintptr_t k = atomic_load_explicit(&t->slot[i].key, memory_order_acquire);
        if (k == key)
            return i;
        if (k == 0)
            return -1;
    }
    return -1;
}

// The value in slot i (from lft_find or lft_claim): 0 until it is written.
static inline uintptr_t lft_val(const lftable *t, int64_t i) {
    return atomic_load_explicit(&t->slot[i].val, memory_order_acquire);
}

// The value of key, or 0 when key is not in the table or its value is not
// written yet.
static inline uintptr_t lft_get(const lftable *t, uintptr_t key) {
    int64_t i = lft_find(t, key);
    return i < 0 ? 0 : lft_val(t, i);
}

// The index of key's slot, claimed now (*mine = 1, when mine is not NULL)
// or by an earlier insert of the same key (*mine = 0); -1, counted in
// *full, when none of its probes is free. A free slot is claimed by
// compare-and-swap without reading it first: a table's pages are mostly
// untouched when a key is added, and a read before the write faults the
// page in twice (the zero page, then a private copy).
static inline int64_t lft_claim(lftable *t, uintptr_t key, int *mine) {
    if (mine != NULL)
        *mine = 0;
    if (!lft_key_ok(t, key))
        return -1;
    uint32_t i = lft_home(t, key);
    for (uint32_t n = 0; n < t->probes; n++, i = (i + 1) & t->mask) {
        uintptr_t want = 0;
        if (atomic_compare_exchange_strong(&t->slot[i].key, &want, key)) {
            if (mine != NULL)
                *mine = 1;
            return i;
        }
        if (want == key)
            return i;
    }
    if (t->full != NULL)
        atomic_fetch_add_explicit(t->full, 1, memory_order_relaxed);
    return -1;
}

// Writes slot i's value (nonzero), publishing whatever was written before.
static inline void lft_set(lftable *t, int64_t i, uintptr_t val) {
    atomic_store_explicit(&t->slot[i].val, val, memory_order_release);
}

// Adds key with val, or replaces its value: 0, or -1 when the table has no
// room for it (counted).
static inline int lft_put(lftable *t, uintptr_t key, uintptr_t val) {
    int64_t i = lft_claim(t, key, NULL);
    if (i < 0)
        return -1;
    lft_set(t, i, val);
    return 0;
}

// Removes key: its value reads 0 first, then its slot is LFT_GONE. A
// reader racing the removal may still see the old value once.
static inline void lft_remove(lftable *t, uintptr_t key) {
    int64_t i = lft_find(t, key);
    if (i < 0)
        return;
    atomic_store_explicit(&t->slot[i].val, 0, memory_order_release);
    uintptr_t want = key;
    atomic_compare_exchange_strong(&t->slot[i].key, &want, LFT_GONE);
}

#endif
