package cstack

/*
#cgo CFLAGS: -O2 -Wall -Wno-unused-function
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "hooks.h"
#include "slots.h"

// What the hooks link with outside these files: the module table
// (callbacks.c), the re-JIT count (rejit.c), a thread's signal stack
// (signals.c).
int clr_module_known(uintptr_t mid) { (void)mid; return 1; }
_Atomic uint64_t clr_rejit_installed_count;
void clr_thread_alt_stack(void) {}

static clr_runtime g_fake_rt;
static ProfInfoVtbl g_fake_vt;
static clr_slot_table *g_tab;

static int setup(void) {
	clr_capture_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.max_threads = 64;
	cfg.ring_size = 1 << 16;
	cfg.ring_soft = 1 << 16;
	cfg.stack_cap = 64;
	g_fake_rt.vtbl = &g_fake_vt;
	g_fake_rt.version = 12;
	g_tab = clr_slot_table_init(&cfg);
	if (g_tab == NULL)
		return -1;
	return clr_hooks_init(&g_fake_rt, g_tab, &cfg);
}

enum { EV_ENTER = 1, EV_LEAVE = 2 };
typedef struct {
	int kind;
	int fn;        // index into the replay's functions
	uintptr_t sp;  // where the runtime's ELT block is on the thread's stack
} event;

enum { MAX_FNS = 8 };

// Replays evs on a thread of its own (a fresh shadow stack), writing the
// depth after each event and, per frame left, its function's index.
typedef struct {
	const event *evs;
	int n;
	int *depth;
	int *left;  // frames on the shadow stack at the end: fn indexes
	int nleft;
	const uint32_t *flags; // per function, FN_SELECTED when NULL
	int *top;              // after each event: the top frame's `recorded`, -1 for none
} replay_t;

static void *replay_thread(void *arg) {
	replay_t *r = arg;
	clr_fn local[MAX_FNS];
	for (int i = 0; i < MAX_FNS; i++) {
		memset(&local[i], 0, sizeof local[i]);
		local[i].function_id = 0x1000 + (uintptr_t)i;
		local[i].index = (uint32_t)i;
		local[i].flags = r->flags != NULL ? r->flags[i] : FN_SELECTED;
	}
	clr_slot *s = NULL;
	for (int i = 0; i < r->n; i++) {
		const event *e = &r->evs[i];
		if (e->kind == EV_ENTER)
			clr_on_enter(&local[e->fn], e->sp);
		else
			clr_on_leave(&local[e->fn], e->sp);
		if (s == NULL) {
			clr_slot *all = clr_slots();
			uint32_t n = clr_slot_count(), me = (uint32_t)syscall(SYS_gettid);
			for (uint32_t k = 0; k < n; k++)
				if (all[k].os_tid == me)
					s = &all[k];
		}
		r->depth[i] = s == NULL ? -1 : (int)s->depth;
		if (r->top != NULL)
			r->top[i] = s == NULL || s->depth == 0 ? -1 : (int)s->stack[s->depth - 1].recorded;
	}
	r->nleft = 0;
	for (uint32_t d = 0; s != NULL && d < s->depth; d++)
		r->left[r->nleft++] = (int)s->stack[d].fn_index;
	return NULL;
}

// Enter and Leave of a call under an unsampled root, n times, on a thread
// of its own: the hooks' cheapest path (a depth count). Returns the
// nanoseconds of all n pairs.
typedef struct {
	long n;
	uint64_t ns;
} bench_t;

static void *bench_thread(void *arg) {
	bench_t *b = arg;
	clr_fn root, fn;
	memset(&root, 0, sizeof root);
	memset(&fn, 0, sizeof fn);
	root.function_id = 0x2000;
	root.flags = FN_SELECTED;
	fn.function_id = 0x2001;
	fn.index = 1;
	fn.flags = FN_SELECTED;
	clr_on_enter(&root, 1000);
	clr_slot *all = clr_slots(), *s = NULL;
	uint32_t ns = clr_slot_count(), me = (uint32_t)syscall(SYS_gettid);
	for (uint32_t k = 0; k < ns; k++)
		if (all[k].os_tid == me)
			s = &all[k];
	if (s == NULL || s->depth != 1)
		return NULL;
	s->stack[0].recorded = FRAME_SKIPPED;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < b->n; i++) {
		clr_on_enter(&fn, 900);
		clr_on_leave(&fn, 900);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	b->ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ull + (uint64_t)(t1.tv_nsec - t0.tv_nsec);
	clr_on_leave(&root, 1000);
	return NULL;
}

static uint64_t bench_skipped(long n) {
	bench_t b = {n, 0};
	pthread_t th;
	if (pthread_create(&th, NULL, bench_thread, &b) != 0)
		return 0;
	pthread_join(th, NULL);
	return b.ns;
}

static int replay(const event *evs, int n, int *depth, int *left, const uint32_t *flags, int *top) {
	replay_t r = {evs, n, depth, left, 0, flags, top};
	pthread_t th;
	if (pthread_create(&th, NULL, replay_thread, &r) != 0)
		return -1;
	pthread_join(th, NULL);
	return r.nleft;
}
*/
import "C"

import "unsafe"

// Setup makes the slot table and gives it to the hooks (once).
func Setup() error {
	if C.setup() != 0 {
		return errSetup
	}
	return nil
}

type setupError struct{}

func (setupError) Error() string { return "no slot table" }

var errSetup = setupError{}

// Event is a hook the runtime calls: Enter or Leave of function Fn, whose
// ELT block is at SP on the thread's stack (lower: deeper).
type Event struct {
	Leave bool
	Fn    int
	SP    uint64
}

// Replay runs evs on a new thread and returns the shadow stack's depth
// after each event and the functions of the frames left on it.
func Replay(evs []Event) (depths []int, left []int) {
	depths, left, _ = ReplayFlags(evs, nil)
	return depths, left
}

// The frame states ReplayFlags reports (capture.h FRAME_*).
const (
	FrameRecorded = int(C.FRAME_RECORDED)
	FramePass     = int(C.FRAME_PASS)
)

// Plumbing is the flags of the compiler's plumbing (capture.h).
const Plumbing = uint32(C.FN_SELECTED | C.FN_PLUMBING)

// ReplayFlags is Replay with each function's flags (FN_SELECTED for all
// when nil), and also returns the top frame's state after each event (-1:
// no frame).
func ReplayFlags(evs []Event, flags []uint32) (depths []int, left []int, top []int) {
	ce := make([]C.event, len(evs))
	for i, e := range evs {
		ce[i].kind = C.EV_ENTER
		if e.Leave {
			ce[i].kind = C.EV_LEAVE
		}
		ce[i].fn = C.int(e.Fn)
		ce[i].sp = C.uintptr_t(e.SP)
	}
	depth := make([]C.int, len(evs)+1)
	topC := make([]C.int, len(evs)+1)
	leftC := make([]C.int, 64)
	var fl *C.uint32_t
	if flags != nil {
		cf := make([]C.uint32_t, C.MAX_FNS)
		for i := range cf {
			cf[i] = C.FN_SELECTED
			if i < len(flags) {
				cf[i] = C.uint32_t(flags[i])
			}
		}
		fl = &cf[0]
	}
	n := C.replay((*C.event)(unsafe.Pointer(&ce[0])), C.int(len(evs)), &depth[0], &leftC[0], fl, &topC[0])
	for i := range evs {
		depths = append(depths, int(depth[i]))
		top = append(top, int(topC[i]))
	}
	for i := 0; i < int(n); i++ {
		left = append(left, int(leftC[i]))
	}
	return depths, left, top
}

// UnsampledPairs times n Enter/Leave pairs of a call under an unsampled
// root on a thread of its own, in nanoseconds (0: no slot).
func UnsampledPairs(n int) uint64 { return uint64(C.bench_skipped(C.long(n))) }

// NoLeave is how many frames the hooks closed without their Leave.
func NoLeave() uint64 { return uint64(C.clr_no_leave_count()) }
