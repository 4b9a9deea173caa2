package clftable

/*
#cgo CFLAGS: -O2 -Wall
#cgo LDFLAGS: -lpthread
#include <pthread.h>
#include <stdlib.h>
#include "lftable.h"

typedef struct {
	lftable t;
	_Atomic uint64_t full;
	// Data kept beside the table by slot index, published by the value.
	uint64_t *beside;
} table;

static table *table_new(uint32_t slots, uint32_t probes) {
	table *t = calloc(1, sizeof *t);
	if (t == NULL)
		return NULL;
	t->t.slot = calloc(slots, sizeof(lft_slot));
	t->beside = calloc(slots, sizeof(uint64_t));
	t->t.mask = slots - 1;
	t->t.probes = probes;
	t->t.full = &t->full;
	return t;
}

static void table_free(table *t) {
	free(t->t.slot);
	free(t->beside);
	free(t);
}

static uint64_t table_full(table *t) { return atomic_load(&t->full); }
static uintptr_t slot_key(table *t, uint32_t i) { return atomic_load(&t->t.slot[i].key); }

// One thread of a race: inserts keys[0..n) in the order given, each with
// the value key*3 and key*5 kept beside it by whoever claimed its slot,
// and between inserts looks every key up, checking that a value it sees is
// the one written and that the data beside a published value is there.
typedef struct {
	table *t;
	const uintptr_t *keys;
	uint32_t n;
	uint32_t failed;   // inserts that found no slot
	uint32_t claimed;  // slots this thread claimed
	uint32_t wrong;    // values or data seen that were never written
} racer;

static void *race(void *arg) {
	racer *r = arg;
	for (uint32_t i = 0; i < r->n; i++) {
		uintptr_t k = r->keys[i];
		int mine = 0;
		int64_t s = lft_claim(&r->t->t, k, &mine);
		if (s < 0) {
			r->failed++;
		} else if (mine) {
			r->claimed++;
			r->t->beside[s] = (uint64_t)k * 5;
			lft_set(&r->t->t, s, k * 3);
		}
		for (uint32_t j = 0; j <= i; j += 1 + i / 16) {
			uintptr_t q = r->keys[j];
			int64_t at = lft_find(&r->t->t, q);
			if (at < 0)
				continue;
			uintptr_t v = lft_val(&r->t->t, at);
			if (v != 0 && (v != q * 3 || r->t->beside[at] != (uint64_t)q * 5))
				r->wrong++;
		}
	}
	return NULL;
}

// Runs nthreads racers at once, racer i over keys[i*n .. (i+1)*n).
static int run_race(table *t, const uintptr_t *keys, uint32_t n, uint32_t nthreads, racer *out) {
	pthread_t th[64];
	if (nthreads > 64)
		return -1;
	for (uint32_t i = 0; i < nthreads; i++) {
		out[i] = (racer){t, keys + (size_t)i * n, n, 0, 0, 0};
		if (pthread_create(&th[i], NULL, race, &out[i]) != 0)
			return -1;
	}
	for (uint32_t i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	return 0;
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Gone is LFT_GONE, the key of a removed slot.
const Gone = uint64(C.LFT_GONE)

// Table is an lftable in C memory with its own full count.
type Table struct {
	p     *C.table
	slots int
}

// New returns a table of slots slots (a power of two) that looks at
// probes of them per key. Free it.
func New(slots, probes int) *Table {
	p := C.table_new(C.uint32_t(slots), C.uint32_t(probes))
	if p == nil || p.t.slot == nil || p.beside == nil {
		panic("clftable: out of memory")
	}
	return &Table{p, slots}
}

func (t *Table) Free() { C.table_free(t.p) }

func (t *Table) Put(key, val uint64) bool {
	return C.lft_put(&t.p.t, C.uintptr_t(key), C.uintptr_t(val)) == 0
}

func (t *Table) Get(key uint64) uint64 { return uint64(C.lft_get(&t.p.t, C.uintptr_t(key))) }

// Find is lft_find: the key's slot, or -1.
func (t *Table) Find(key uint64) int { return int(C.lft_find(&t.p.t, C.uintptr_t(key))) }

// Claim is lft_claim: the key's slot (or -1) and whether this call took it.
func (t *Table) Claim(key uint64) (int, bool) {
	var mine C.int
	i := C.lft_claim(&t.p.t, C.uintptr_t(key), &mine)
	return int(i), mine != 0
}

func (t *Table) Remove(key uint64) { C.lft_remove(&t.p.t, C.uintptr_t(key)) }

// Full is the count of inserts that found no slot.
func (t *Table) Full() uint64 { return uint64(C.table_full(t.p)) }

// Home is the slot a key's probing starts at.
func (t *Table) Home(key uint64) int { return int(C.lft_home(&t.p.t, C.uintptr_t(key))) }

// Keys are the slots' keys, index by index (0: free, Gone: removed).
func (t *Table) Keys() []uint64 {
	out := make([]uint64, t.slots)
	for i := range out {
		out[i] = uint64(C.slot_key(t.p, C.uint32_t(i)))
	}
	return out
}

// Racer is what one thread of Race saw.
type Racer struct{ Failed, Claimed, Wrong int }

// Race runs len(keys) threads at once on C threads, thread i inserting
// keys[i] in order with the value key*3 (and key*5 beside it, by slot)
// and looking up the keys it inserted so far as it goes.
func (t *Table) Race(keys [][]uint64) ([]Racer, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	n := len(keys[0])
	flat := (*[1 << 28]C.uintptr_t)(C.malloc(C.size_t(len(keys)*n) * C.size_t(unsafe.Sizeof(C.uintptr_t(0)))))[: len(keys)*n : len(keys)*n]
	defer C.free(unsafe.Pointer(&flat[0]))
	for i, ks := range keys {
		if len(ks) != n {
			return nil, errors.New("clftable: every racer needs as many keys")
		}
		for j, k := range ks {
			flat[i*n+j] = C.uintptr_t(k)
		}
	}
	rs := make([]C.racer, len(keys))
	if C.run_race(t.p, &flat[0], C.uint32_t(n), C.uint32_t(len(keys)), &rs[0]) != 0 {
		return nil, errors.New("clftable: cannot start the threads")
	}
	out := make([]Racer, len(keys))
	for i, r := range rs {
		out[i] = Racer{int(r.failed), int(r.claimed), int(r.wrong)}
	}
	return out, nil
}
