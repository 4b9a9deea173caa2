package cstack

/*
#cgo CFLAGS: -O2 -Wall -Wno-unused-function
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "async.h"
#include "hooks.h"
#include "slots.h"
#include "shed.h"
#include "eltargs.h"
#include "workitems.h"
#include <pthread.h>

// What the hooks link with outside these files: the module table
// (callbacks.c), the re-JIT count (rejit.c), a thread's signal stack
// (signals.c).
int clr_module_known(uintptr_t mid) { (void)mid; return 1; }
_Atomic uint64_t clr_rejit_installed_count;
void clr_thread_alt_stack(void) {}

static clr_runtime g_fake_rt;
static ProfInfoVtbl g_fake_vt;
static clr_slot_table *g_tab;

// A replay with objects: the `this` of the call being entered (its ELT
// block in g_elt_area, which reads as no saved registers), the objects
// themselves (a state machine's fields at flow_off), and what a call
// leaving returns (a bool).
enum { MAX_OBJS = 4, OBJ_WORDS = 8, ELT_AREA = 4096 };
static uintptr_t g_elt_area[ELT_AREA];
static uint64_t g_objs[MAX_OBJS][OBJ_WORDS];
static __thread uintptr_t g_cur_this;
static __thread uint64_t g_cur_ret;

static HRESULT fake_enter3(void *self, FunctionID fid, COR_PRF_ELT_INFO elt, COR_PRF_FRAME_INFO *frame, ULONG *cb,
                           COR_PRF_FUNCTION_ARGUMENT_INFO *ai) {
	(void)self; (void)fid; (void)elt; (void)cb;
	*frame = 0;
	ai->numRanges = 1;
	ai->totalArgumentSize = 8;
	ai->ranges[0].startAddress = (UINT_PTR)&g_cur_this;
	ai->ranges[0].length = 8;
	return S_OK;
}

static HRESULT fake_leave3(void *self, FunctionID fid, COR_PRF_ELT_INFO elt, COR_PRF_FRAME_INFO *frame,
                           COR_PRF_FUNCTION_ARGUMENT_RANGE *rv) {
	(void)self; (void)fid; (void)elt;
	*frame = 0;
	rv->startAddress = (UINT_PTR)&g_cur_ret;
	rv->length = 1;
	return S_OK;
}

// A selected root (FunctionID id) and a selected method it calls (id + 1).
static void root_and_callee(clr_fn *root, clr_fn *fn, uintptr_t id) {
	memset(root, 0, sizeof *root);
	memset(fn, 0, sizeof *fn);
	root->function_id = id;
	root->flags = FN_SELECTED;
	fn->function_id = id + 1;
	fn->index = 1;
	fn->flags = FN_SELECTED;
}

static clr_capture_config g_base_cfg;

static int setup(void) {
	clr_capture_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.max_threads = 64;
	cfg.ring_size = 1 << 16;
	cfg.ring_soft = 1 << 16;
	cfg.stack_cap = 64;
	g_fake_rt.vtbl = &g_fake_vt;
	g_fake_rt.version = 12;
	g_fake_vt.GetFunctionEnter3Info = fake_enter3;
	g_fake_vt.GetFunctionLeave3Info = fake_leave3;
	g_tab = clr_slot_table_init(&cfg);
	if (g_tab == NULL)
		return -1;
	g_base_cfg = cfg;
	return clr_hooks_init(&g_fake_rt, g_tab, &cfg);
}

// A root shed whole (the backlog flag up) calling a method n times, under
// the fold rule (min_calls, max_ns) and the serving rule counting 32 calls,
// on a thread of its own. Shapes: the method called under a call of another
// method (SHED_NESTED) or right under the root (SHED_DIRECT), the root the
// thread's outermost frame; or (SHED_SERVED) each call right under a root
// of its own, a call of the thread's outermost frame once that frame serves
// (recorded before the backlog flag goes up), or two calls under each such
// root (SHED_SERVED_TWICE). Reports the method's judged
// calls and whether it folded. Under a frame that serves: SHED_GETTER,
// each call a leaf, after one call beside them made two calls (a unit of
// work's); SHED_WRAPPER, each call making one call, after such a call;
// SHED_LONE_LEAF, each a leaf, with no such call beside them (a loop whose
// handler is a leaf); SHED_HANDLER, each call making two calls, after such
// a call; SHED_HANDLER_LEAF, its first 10 calls making two calls, the rest
// none (what it calls folded and lost its hooks); SHED_LAZY_GETTER, its
// first call making two calls (a type initializer), the rest none.
enum { SHED_NESTED = 0, SHED_DIRECT = 1, SHED_SERVED = 2, SHED_GETTER = 3, SHED_LONE_LEAF = 4, SHED_HANDLER = 5, SHED_HANDLER_LEAF = 6, SHED_WRAPPER = 7, SHED_LAZY_GETTER = 8, SHED_SERVED_TWICE = 9 };
typedef struct {
	uint32_t min_calls;
	uint64_t max_ns;
	int n;
	int shape;
	uint32_t judged;
	int timed; // its shed calls timed for the rule (their frame has a start)
	int folded;
	int rejit; // it may lose its hooks (clr_rejit_wanted)
} shed_fold_t;

// This thread's slot (the last one taken by its thread id), NULL before
// its first hooked call.
static clr_slot *this_slot(void) {
	clr_slot *all = clr_slots(), *s = NULL;
	uint32_t n = clr_slot_count(), me = (uint32_t)syscall(SYS_gettid);
	for (uint32_t k = 0; k < n; k++)
		if (all[k].os_tid == me)
			s = &all[k];
	return s;
}

// Whether the call of fn just entered on this thread is shed and timed
// (a folded call is timed for the span it folds into).
static int entered_timed(const clr_fn *fn) {
	clr_slot *s = this_slot();
	if (s == NULL || s->depth == 0)
		return 0;
	const clr_frame *top = &s->stack[s->depth - 1];
	return top->fn == fn && top->recorded == FRAME_SHED && top->start != 0;
}

static void *shed_fold_thread(void *arg) {
	shed_fold_t *r = arg;
	clr_fn root, fn, mid;
	root_and_callee(&root, &fn, 0x3000);
	memset(&mid, 0, sizeof mid);
	mid.function_id = 0x3010;
	mid.index = 2;
	mid.flags = FN_SELECTED;
	clr_fn unit, part;
	memset(&unit, 0, sizeof unit);
	unit.function_id = 0x3020;
	unit.index = 3;
	unit.flags = FN_SELECTED;
	memset(&part, 0, sizeof part);
	part.function_id = 0x3030;
	part.index = 4;
	part.flags = FN_SELECTED;
	if (r->shape >= SHED_GETTER && r->shape != SHED_SERVED_TWICE) {
		clr_on_enter(&root, 1000);
		for (int i = 0; i < 40; i++) { // the root serves from here
			clr_on_enter(&mid, 950);
			clr_on_leave(&mid, 950);
		}
		atomic_store(&clr_shed.backlog, 1);
		if (r->shape != SHED_LONE_LEAF) {
			clr_on_enter(&unit, 950);
			for (int k = 0; k < 2; k++) {
				clr_on_enter(&part, 900);
				clr_on_leave(&part, 900);
			}
			clr_on_leave(&unit, 950);
		}
		for (int i = 0; i < r->n; i++) {
			clr_on_enter(&fn, 950);
			r->timed += entered_timed(&fn);
			int parts = r->shape == SHED_WRAPPER ? 1 : r->shape == SHED_HANDLER || (r->shape == SHED_HANDLER_LEAF && i < 10) || (r->shape == SHED_LAZY_GETTER && i == 0) ? 2 : 0;
			for (int k = 0; k < parts; k++) {
				clr_on_enter(&part, 900);
				clr_on_leave(&part, 900);
			}
			clr_on_leave(&fn, 950);
		}
		clr_on_leave(&root, 1000);
	} else if (r->shape == SHED_SERVED || r->shape == SHED_SERVED_TWICE) {
		clr_on_enter(&root, 1000);
		for (int i = 0; i < 40; i++) {
			clr_on_enter(&mid, 950);
			clr_on_leave(&mid, 950);
		}
		atomic_store(&clr_shed.backlog, 1);
		int per = r->shape == SHED_SERVED_TWICE ? 2 : 1;
		for (int i = 0; i < r->n; i += per) {
			clr_on_enter(&mid, 950);
			for (int k = 0; k < per; k++) {
				clr_on_enter(&fn, 900);
				r->timed += entered_timed(&fn);
				clr_on_leave(&fn, 900);
			}
			clr_on_leave(&mid, 950);
		}
		clr_on_leave(&root, 1000);
	} else {
		atomic_store(&clr_shed.backlog, 1);
		clr_on_enter(&root, 1000);
		if (r->shape == SHED_NESTED)
			clr_on_enter(&mid, 950);
		for (int i = 0; i < r->n; i++) {
			clr_on_enter(&fn, 900);
			r->timed += entered_timed(&fn);
			clr_on_leave(&fn, 900);
		}
		if (r->shape == SHED_NESTED)
			clr_on_leave(&mid, 950);
		clr_on_leave(&root, 1000);
	}
	r->judged = atomic_load(&fn.stat_calls);
	r->folded = (fn.flags & FN_FOLDED) != 0;
	r->rejit = clr_rejit_wanted(&fn);
	return NULL;
}

static void shed_fold(shed_fold_t *r) {
	clr_capture_config cfg = g_base_cfg;
	cfg.fold_min_calls = r->min_calls;
	cfg.fold_max_ns = r->max_ns;
	cfg.serving_children = 32;
	clr_hooks_init(&g_fake_rt, g_tab, &cfg);
	pthread_t t;
	if (pthread_create(&t, NULL, shed_fold_thread, r) == 0)
		pthread_join(t, NULL);
	atomic_store(&clr_shed.backlog, 0);
	clr_hooks_init(&g_fake_rt, g_tab, &g_base_cfg);
}

enum { EV_ENTER = 1, EV_LEAVE = 2, EV_TAILCALL = 3 };
typedef struct {
	int kind;
	int fn;        // index into the replay's functions
	uintptr_t sp;  // where the runtime's ELT block is on the thread's stack
	int obj;       // with objects: the call's `this` (1..MAX_OBJS), 0 none
	int ret;       // with objects: what a Leave returns
	int fresh;     // with objects: obj is a new object (zeroed first)
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
	int objects;           // ELT blocks in g_elt_area, `this` from the events
	uint64_t dropped;      // the thread's calls counted dropped
	uint32_t serving_children; // the serving rule's calls (0: the base config's)
	int *tails;                // per function, 1 + the function it calls in tail position (0: none)
	int first;                 // FIRST_*: how the first event's root is decided
	uint32_t fold_min_calls;   // the fold rule (0: off, the base config)
	uint64_t fold_max_ns;
	uint32_t fn_flags[MAX_FNS]; // at the end: each function's flags
	// After each event: the ring's head (bytes written) and the bytes the
	// hooks keep for records still to come; at the end, the records the
	// events after the first wrote, at most MAX_RECS.
	uint64_t *head;
	uint32_t *reserved;
	uint32_t *recs; // 4 words each: kind | flags << 16, function index, time's low word, size
	int nrecs;
} replay_t;

enum { MAX_RECS = 256 };

// How a replay's first root is decided: as any (recorded), shed under
// load, or not sampled; every later root is recorded.
enum { FIRST_RECORDED = 0, FIRST_SHED = 1, FIRST_UNSAMPLED = 2 };

// The strategy a FIRST_UNSAMPLED replay publishes: no block of its own, so
// each function decides by its own bound.
static clr_strategy g_replay_strategy;

static void *replay_thread(void *arg) {
	replay_t *r = arg;
	clr_fn local[MAX_FNS];
	for (int i = 0; i < MAX_FNS; i++) {
		memset(&local[i], 0, sizeof local[i]);
		local[i].function_id = 0x1000 + (uintptr_t)i;
		local[i].index = (uint32_t)i;
		local[i].flags = r->flags != NULL ? r->flags[i] : FN_SELECTED;
		local[i].def_key = 0x100 + (uint64_t)i;
		if (r->tails != NULL && r->tails[i] != 0)
			local[i].tail_keys[0] = 0x100 + (uint64_t)(r->tails[i] - 1);
		clr_def_put(&local[i]);
		for (int k = 0; k < 6; k++)
			local[i].flow_off[k] = (uint16_t)(8 * k);
	}
	if (r->objects)
		memset(g_objs, 0, sizeof g_objs);
	if (r->first == FIRST_UNSAMPLED && r->n > 0) {
		for (int i = 0; i < MAX_FNS; i++)
			local[i].sampling.bound = i == r->evs[0].fn ? 0 : CLR_SAMPLE_ALWAYS;
		atomic_store(&clr_strategy_ptr, &g_replay_strategy);
	}
	clr_slot *s = NULL;
	uint64_t base = 0;
	for (int i = 0; i < r->n; i++) {
		const event *e = &r->evs[i];
		atomic_store(&clr_shed.backlog, i == 0 && r->first == FIRST_SHED);
		uintptr_t elt = e->sp;
		if (r->objects) {
			elt = (uintptr_t)&g_elt_area[e->sp % ELT_AREA];
			if (e->fresh && e->obj > 0 && e->obj <= MAX_OBJS)
				memset(g_objs[e->obj - 1], 0, sizeof g_objs[0]);
			g_cur_this = e->obj > 0 && e->obj <= MAX_OBJS ? (uintptr_t)g_objs[e->obj - 1] : 0;
			g_cur_ret = (uint64_t)e->ret;
		}
		if (e->kind == EV_ENTER)
			clr_on_enter(&local[e->fn], elt);
		else if (e->kind == EV_TAILCALL)
			clr_on_tailcall(&local[e->fn], elt);
		else
			clr_on_leave(&local[e->fn], elt);
		if (s == NULL) {
			s = this_slot();
			if (s != NULL && i == 0) // a slot may be reused: what this thread adds
				base = atomic_load_explicit(&s->dropped, memory_order_relaxed);
		}
		r->depth[i] = s == NULL ? -1 : (int)s->depth;
		r->head[i] = s == NULL ? 0 : atomic_load_explicit(&s->head, memory_order_relaxed);
		r->reserved[i] = s == NULL ? 0 : s->reserved;
		if (r->top != NULL)
			r->top[i] = s == NULL || s->depth == 0 ? -1 : (int)s->stack[s->depth - 1].recorded;
	}
	atomic_store(&clr_strategy_ptr, NULL);
	for (int i = 0; i < MAX_FNS; i++)
		r->fn_flags[i] = local[i].flags;
	r->nleft = 0;
	r->dropped = s == NULL ? 0 : atomic_load_explicit(&s->dropped, memory_order_relaxed) - base;
	for (uint32_t d = 0; s != NULL && d < s->depth; d++)
		r->left[r->nleft++] = (int)s->stack[d].fn_index;
	// The records the events after the first wrote (the ring does not
	// wrap in a replay).
	r->nrecs = 0;
	uint64_t end = s == NULL ? 0 : atomic_load_explicit(&s->head, memory_order_relaxed);
	for (uint64_t pos = r->n > 0 && s != NULL ? r->head[0] : end; pos + REC_HEADER <= end && r->nrecs < MAX_RECS; r->nrecs++) {
		const uint8_t *p = s->data + (pos & (g_base_cfg.ring_size - 1));
		uint32_t size = *(const uint32_t *)p;
		r->recs[4 * r->nrecs] = *(const uint16_t *)(p + 4) | (uint32_t)*(const uint16_t *)(p + 6) << 16;
		r->recs[4 * r->nrecs + 1] = *(const uint32_t *)(p + REC_HEADER);
		r->recs[4 * r->nrecs + 2] = (uint32_t)*(const uint64_t *)(p + 8);
		r->recs[4 * r->nrecs + 3] = size;
		if (size == 0)
			break;
		pos += size;
	}
	return NULL;
}

// A work item's run that jumps to its callback (workitems.h RUN_*), on a
// thread of its own: an item made under a span (clr_work_made), its run
// entered (`this` the item), its Tailcall, then the next Enter, of a
// method called with rdi and rsi as given (its ELT block above or below
// the run's), and its Leave. The item holds its delegate (word 1) and its
// argument (word 2); the delegate its target (word 1).
enum { RT_STATIC = 0, RT_INSTANCE = 1, RT_OTHER = 2, RT_STATIC_NULL_ARG = 3 };
typedef struct {
	int callee;   // RT_*: what the next call is called with
	int no_words; // the run knows no delegate field
	int no_arg;   // the item's argument is null
	int above;    // the next call's ELT block is above the run's
	int joined;   // the next call's span is in the maker's trace, under its span
	int depth_in, depth_out;
} run_tail_t;

static uint64_t g_rt_item[4], g_rt_dlg[4], g_rt_target[2], g_rt_arg[2];
static uintptr_t g_rt_data[2][32];
static uintptr_t g_rt_elt[8];

static void *run_tail_thread(void *arg) {
	run_tail_t *r = arg;
	clr_fn run, callee;
	root_and_callee(&run, &callee, 0x4000);
	run.flags = FN_SELECTED | FN_WORK_RUN;
	if (!r->no_words) {
		run.flow_off[RUN_DELEGATE] = 8;
		run.flow_off[RUN_ARG] = 16;
		run.flow_off[RUN_TARGET] = 8;
	}
	g_rt_item[0] = 0x7770;
	g_rt_item[1] = (uintptr_t)g_rt_dlg;
	g_rt_item[2] = r->no_arg ? 0 : (uintptr_t)g_rt_arg;
	g_rt_dlg[0] = 0x7771;
	g_rt_dlg[1] = r->callee == RT_STATIC_NULL_ARG ? (uintptr_t)g_rt_dlg : (uintptr_t)g_rt_target;
	struct timespec now;
	clock_gettime(CLOCK_REALTIME_COARSE, &now);
	clr_work_ctx ctx = {{0xaa, 0xbb}, 0xcc, (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec, 1, 0, 0};
	clr_work_made((uintptr_t)g_rt_item, WORK_JOIN, &ctx);
	// ELT blocks: a word pointing at the stub's saved registers.
	uintptr_t *run_elt = &g_rt_elt[4], *next_elt = r->above ? &g_rt_elt[6] : &g_rt_elt[1];
	*run_elt = (uintptr_t)g_rt_data[0];
	*next_elt = (uintptr_t)g_rt_data[1];
	g_rt_data[0][ELT_RDI / 8] = (uintptr_t)g_rt_item;
	uintptr_t rdi = 0x5150, rsi = 0x5158;
	switch (r->callee) {
	case RT_STATIC:
		rdi = (uintptr_t)g_rt_arg;
		break;
	case RT_INSTANCE:
		rdi = (uintptr_t)g_rt_target;
		rsi = r->no_arg ? 0 : (uintptr_t)g_rt_arg;
		break;
	case RT_STATIC_NULL_ARG:
		rdi = 0;
		break;
	}
	g_rt_data[1][ELT_RDI / 8] = rdi;
	g_rt_data[1][ELT_RDI / 8 + 1] = rsi;
	g_cur_this = (uintptr_t)g_rt_item;
	clr_on_enter(&run, (uintptr_t)run_elt);
	clr_on_tailcall(&run, (uintptr_t)run_elt);
	g_cur_this = rdi;
	clr_on_enter(&callee, (uintptr_t)next_elt);
	clr_slot *s = this_slot();
	if (s == NULL || s->depth == 0)
		return NULL;
	clr_frame *top = &s->stack[s->depth - 1];
	r->depth_in = (int)s->depth;
	r->joined = top->fn == &callee && top->recorded == FRAME_RECORDED && top->trace[0] == 0xaa && top->trace[1] == 0xbb;
	clr_on_leave(&callee, (uintptr_t)next_elt);
	r->depth_out = (int)s->depth;
	return NULL;
}

static void run_tail(run_tail_t *r) {
	pthread_t t;
	if (pthread_create(&t, NULL, run_tail_thread, r) == 0)
		pthread_join(t, NULL);
}

// Enter and Leave of a call in an unsampled request (a unit of work's
// trace, where nothing serves), n times, on a thread of its own: the
// hooks' cheapest path for a call of a trace (no record, no clock read).
// Returns the nanoseconds of all n pairs.
typedef struct {
	long n;
	uint64_t ns;
} bench_t;

static void *bench_thread(void *arg) {
	bench_t *b = arg;
	clr_fn root, fn;
	root_and_callee(&root, &fn, 0x2000);
	clr_on_enter(&root, 1000);
	clr_slot *s = this_slot();
	if (s == NULL || s->depth != 1)
		return NULL;
	s->stack[0].recorded = FRAME_UNSAMPLED;
	s->stack[0].unit = 1;
	s->stack[0].root = ROOT_NONE;
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

// Word w of object o (0-based) after a replay with objects.
static uint64_t obj_word(int o, int w) { return g_objs[o][w]; }

// A replay of n events with its outputs, in C memory (cgo passes no Go
// pointers inside what it passes).
static replay_t *replay_new(int n) {
	replay_t *r = calloc(1, sizeof *r);
	r->evs = calloc((size_t)n, sizeof(event));
	r->n = n;
	r->depth = calloc((size_t)n, sizeof(int));
	r->top = calloc((size_t)n, sizeof(int));
	r->left = calloc(64, sizeof(int));
	r->head = calloc((size_t)n, sizeof(uint64_t));
	r->reserved = calloc((size_t)n, sizeof(uint32_t));
	r->recs = calloc(4 * MAX_RECS, sizeof(uint32_t));
	return r;
}

static void replay_free(replay_t *r) {
	free((void *)r->evs);
	free(r->depth);
	free(r->top);
	free(r->left);
	free(r->head);
	free(r->reserved);
	free(r->recs);
	free((void *)r->flags);
	free(r->tails);
	free(r);
}

static event *replay_evs(replay_t *r) { return (event *)r->evs; }

static void replay_flags(replay_t *r, const uint32_t *flags, int n) {
	uint32_t *f = calloc(MAX_FNS, sizeof *f);
	for (int i = 0; i < MAX_FNS; i++)
		f[i] = i < n ? flags[i] : FN_SELECTED;
	r->flags = f;
}

static void replay_tails(replay_t *r, const int *tails, int n) {
	r->tails = calloc(MAX_FNS, sizeof *r->tails);
	for (int i = 0; i < MAX_FNS && i < n; i++)
		r->tails[i] = tails[i] + 1;
}

static int replay(replay_t *r) {
	int own = r->serving_children != 0 || r->fold_min_calls != 0;
	if (own) {
		clr_capture_config cfg = g_base_cfg;
		if (r->serving_children != 0)
			cfg.serving_children = r->serving_children;
		cfg.fold_min_calls = r->fold_min_calls;
		cfg.fold_max_ns = r->fold_max_ns;
		clr_hooks_init(&g_fake_rt, g_tab, &cfg);
	}
	pthread_t th;
	int ok = pthread_create(&th, NULL, replay_thread, r) == 0;
	if (ok)
		pthread_join(th, NULL);
	if (own)
		clr_hooks_init(&g_fake_rt, g_tab, &g_base_cfg);
	return ok ? r->nleft : -1;
}
*/
import "C"

import (
	"sync"
	"unsafe"
)

// Setup makes the slot table and gives it to the hooks (once).
func Setup() error {
	setupOnce.Do(func() {
		if C.setup() != 0 {
			setupErr = errSetup
		}
	})
	return setupErr
}

// A second setup would make a second slot table, the first one lost.
var (
	setupOnce sync.Once
	setupErr  error
)

type setupError struct{}

func (setupError) Error() string { return "no slot table" }

var errSetup = setupError{}

// Event is a hook the runtime calls: Enter or Leave of function Fn, or
// its Tailcall (it leaves by a tail call), whose ELT block is at SP on the
// thread's stack (lower: deeper). With objects (ReplayObjects): This is
// the call's `this`, object 1 to 4 (0: none), and Ret what a Leave
// returns.
type Event struct {
	Leave bool
	Tail  bool
	Fn    int
	SP    uint64
	This  int
	Ret   bool
	Fresh bool // This is a new object: its fields zero
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
	r := replay(evs, flags, false, 0, nil)
	return r.Depths, r.Left, r.Top
}

// Replayed is what ReplayObjects saw.
type Replayed struct {
	Depths, Left, Top []int
	FnFlags           []uint32 // each function's flags at the end (capture.h FN_*)
	Dropped           uint64   // calls the thread counted dropped
	// After each event: the ring's head (bytes written) and the bytes kept
	// for records still to come (clr_slot.reserved).
	Heads    []uint64
	Reserved []uint32
	// The records written by the events after the first.
	Records []Record
	// Objects: each object's state machine fields (trace id, span id,
	// check word) at the end.
	Objects [][4]uint64
}

// AsyncCheck is the check word of a state machine's fields (async.h).
func AsyncCheck(t0, t1, span uint64) uint64 {
	return uint64(C.clr_async_check(C.uint64_t(t0), C.uint64_t(t1), C.uint64_t(span)))
}

// The marks a state machine's check word holds when its fields carry no
// span (async.h).
const (
	AsyncUntraced = uint64(C.ASYNC_UNTRACED)
	AsyncFolded   = uint64(C.ASYNC_FOLDED)
)

// ReplayObjects is ReplayFlags with the events' objects: each function's
// state machine fields (flow_off) are words 0 to 5 of its `this`; objects
// start zeroed. SP stays under 4096.
func ReplayObjects(evs []Event, flags []uint32) Replayed { return replay(evs, flags, true, 0, nil) }

// ReplayServing is ReplayObjects with the serving rule counting
// servingChildren calls (or resumes) under a frame.
func ReplayServing(evs []Event, flags []uint32, servingChildren uint32) Replayed {
	return replay(evs, flags, true, servingChildren, nil)
}

// The ways a replay's first root is decided (ReplayFirst).
const (
	FirstShed      = int(C.FIRST_SHED)      // shed under load
	FirstUnsampled = int(C.FIRST_UNSAMPLED) // not sampled
)

// ReplayFirst is ReplayServing with the first event's root decided as
// first says (FirstShed, FirstUnsampled); later roots are recorded.
func ReplayFirst(evs []Event, flags []uint32, servingChildren uint32, first int) Replayed {
	return replayWith(evs, flags, true, servingChildren, nil, first)
}

// ReplayTails is ReplayServing with what each function calls in tail
// position: tails[i] is the function i calls so (-1: none).
func ReplayTails(evs []Event, flags []uint32, tails []int) Replayed {
	return replay(evs, flags, true, 0, tails)
}

// Record is one record the hooks wrote: its kind and flags (capture.h
// REC_*, RF_*), its function's index, the low word of its time, its size.
type Record struct {
	Kind, Flags uint16
	Fn          uint32
	Time        uint32
	Size        uint32
}

// The record kinds and flags ReplayServing's checks read (capture.h).
const (
	RecEnter   = uint16(C.REC_ENTER)
	RecLeave   = uint16(C.REC_LEAVE)
	RecServing = uint16(C.REC_SERVING)
	RecTail    = uint16(C.REC_TAILCALL)
	FlagResume = uint16(C.RF_RESUME)
	FlagRoot   = uint16(C.RF_ROOT)
	FlagLink   = uint16(C.RF_LINK)
	// FlagFolded: an exit record carries the fold part of the calls
	// folded into its frame (RF_FOLDED).
	FlagFolded = uint16(C.RF_FOLDED)
)

// The function flags of the async and iterator replays (capture.h).
const (
	Selected = uint32(C.FN_SELECTED)
	Folded   = uint32(C.FN_SELECTED | C.FN_FOLDED)
	Exempt   = uint32(C.FN_SELECTED | C.FN_FOLD_EXEMPT)
	Kickoff  = uint32(C.FN_SELECTED | C.FN_ASYNC_KICKOFF)
	IterCtor = uint32(C.FN_SELECTED | C.FN_ASYNC_MOVENEXT | C.FN_PLUMBING)
	IterStep = uint32(C.FN_SELECTED | C.FN_ASYNC_MOVENEXT | C.FN_ITER_STEP)
	IterEnd  = uint32(C.FN_SELECTED | C.FN_ASYNC_MOVENEXT | C.FN_ITER_END)
	// An iterator's enumerator's constructor as the profiler flags it: the
	// start of an enumeration, whose steps the fold rule judges.
	IterStart = IterCtor | uint32(C.FN_ITER_START)
	FnFolded  = uint32(C.FN_FOLDED)
	// AsyncLoopStep: the MoveNext of an async method whose state machine
	// has the serving fields (words 4 and 5).
	AsyncLoopStep = uint32(C.FN_SELECTED | C.FN_ASYNC_MOVENEXT | C.FN_ASYNC_LOOP)
	FrameFold     = int(C.FRAME_FOLDED)
)

func replay(evs []Event, flags []uint32, objects bool, servingChildren uint32, tails []int) Replayed {
	return replayWith(evs, flags, objects, servingChildren, tails, 0)
}

func replayWith(evs []Event, flags []uint32, objects bool, servingChildren uint32, tails []int, first int) Replayed {
	return replayFold(evs, flags, objects, servingChildren, tails, first, 0, 0)
}

// ReplayFolding is ReplayObjects under the fold rule (minCalls calls, at
// most 1 in 100 of maxNs or more); Replayed.FnFlags says which folded.
func ReplayFolding(evs []Event, flags []uint32, minCalls uint32, maxNs uint64) Replayed {
	return replayFold(evs, flags, true, 0, nil, 0, minCalls, maxNs)
}

func replayFold(evs []Event, flags []uint32, objects bool, servingChildren uint32, tails []int, first int, minCalls uint32, maxNs uint64) Replayed {
	var r Replayed
	if len(evs) == 0 {
		return r
	}
	cr := C.replay_new(C.int(len(evs)))
	defer C.replay_free(cr)
	ce := unsafe.Slice(C.replay_evs(cr), len(evs))
	for i, e := range evs {
		ce[i].kind = C.EV_ENTER
		if e.Leave {
			ce[i].kind = C.EV_LEAVE
		}
		if e.Tail {
			ce[i].kind = C.EV_TAILCALL
		}
		ce[i].fn = C.int(e.Fn)
		ce[i].sp = C.uintptr_t(e.SP)
		ce[i].obj = C.int(e.This)
		if e.Ret {
			ce[i].ret = 1
		}
		if e.Fresh {
			ce[i].fresh = 1
		}
	}
	if flags != nil {
		cf := make([]C.uint32_t, len(flags))
		for i, f := range flags {
			cf[i] = C.uint32_t(f)
		}
		C.replay_flags(cr, &cf[0], C.int(len(cf)))
	}
	if objects {
		cr.objects = 1
	}
	if len(tails) > 0 {
		ct := make([]C.int, len(tails))
		for i, tl := range tails {
			ct[i] = C.int(tl)
		}
		C.replay_tails(cr, &ct[0], C.int(len(ct)))
	}
	cr.serving_children = C.uint32_t(servingChildren)
	cr.first = C.int(first)
	cr.fold_min_calls, cr.fold_max_ns = C.uint32_t(minCalls), C.uint64_t(maxNs)
	n := C.replay(cr)
	depth, top := unsafe.Slice(cr.depth, len(evs)), unsafe.Slice(cr.top, len(evs))
	head, reserved := unsafe.Slice(cr.head, len(evs)), unsafe.Slice(cr.reserved, len(evs))
	for i := range evs {
		r.Depths = append(r.Depths, int(depth[i]))
		r.Top = append(r.Top, int(top[i]))
		r.Heads = append(r.Heads, uint64(head[i]))
		r.Reserved = append(r.Reserved, uint32(reserved[i]))
	}
	left := unsafe.Slice(cr.left, 64)
	for i := 0; i < int(n); i++ {
		r.Left = append(r.Left, int(left[i]))
	}
	recs := unsafe.Slice(cr.recs, 4*C.MAX_RECS)
	for i := 0; i < int(cr.nrecs); i++ {
		w := recs[4*i : 4*i+4]
		r.Records = append(r.Records, Record{Kind: uint16(w[0]), Flags: uint16(w[0] >> 16), Fn: uint32(w[1]), Time: uint32(w[2]), Size: uint32(w[3])})
	}
	r.Dropped = uint64(cr.dropped)
	for _, f := range cr.fn_flags {
		r.FnFlags = append(r.FnFlags, uint32(f))
	}
	for o := 0; objects && o < C.MAX_OBJS; o++ {
		var w [4]uint64
		for i := range w {
			w[i] = uint64(C.obj_word(C.int(o), C.int(i)))
		}
		r.Objects = append(r.Objects, w)
	}
	return r
}

// UnsampledPairs times n Enter/Leave pairs of a call in an unsampled
// request on a thread of its own, in nanoseconds (0: no slot).
func UnsampledPairs(n int) uint64 { return uint64(C.bench_skipped(C.long(n))) }

// ShedShape is where ShedFold calls its method.
type ShedShape int

const (
	ShedNested      ShedShape = C.SHED_NESTED       // under a call of another method, under the root
	ShedDirect      ShedShape = C.SHED_DIRECT       // right under the root, the thread's outermost frame
	ShedServed      ShedShape = C.SHED_SERVED       // right under roots a serving frame's calls began
	ShedServedTwice ShedShape = C.SHED_SERVED_TWICE // twice under each of those roots
	ShedGetter      ShedShape = C.SHED_GETTER       // a serving frame's calls, leaves, beside a call that made calls
	ShedLoneLeaf    ShedShape = C.SHED_LONE_LEAF    // a serving frame's calls, leaves, alone
	ShedHandler     ShedShape = C.SHED_HANDLER      // a serving frame's calls, each making a call
	ShedHandlerLeaf ShedShape = C.SHED_HANDLER_LEAF // the same, but for its first calls leaves
	ShedWrapper     ShedShape = C.SHED_WRAPPER      // a serving frame's calls, each making one call
	ShedLazyGetter  ShedShape = C.SHED_LAZY_GETTER  // the same as ShedGetter, but for its first call
)

// ShedFold calls a method n times in traces shed whole, shaped as shape
// says, on a thread of its own, with the fold rule on (minCalls, maxNs); it
// reports how many of the calls the rule judged and how many of the shed
// ones were timed (two clock reads each), whether the method folded, and whether it may
// then lose its hooks.
func ShedFold(minCalls uint32, maxNs uint64, n int, shape ShedShape) (judged uint32, timed int, folded, rejit bool) {
	r := C.shed_fold_t{min_calls: C.uint32_t(minCalls), max_ns: C.uint64_t(maxNs), n: C.int(n), shape: C.int(shape)}
	C.shed_fold(&r)
	return uint32(r.judged), int(r.timed), r.folded != 0, r.rejit != 0
}

// RecordNs is the time the hooks counted recording admitted calls, over
// every thread so far (sampled: one record in 8).
func RecordNs() uint64 { return uint64(C.clr_record_ns()) }

// NoLeave is how many frames the hooks closed without their Leave.
func NoLeave() uint64 { return uint64(C.clr_no_leave_count()) }

// RunTail is what a work item's run that jumped to its callback became,
// once the next call entered (run_tail_thread): whether that call joined
// the item's maker's trace, and the depths with it and after its Leave.
type RunTail struct {
	Joined            bool
	DepthIn, DepthOut int
}

// The calls that may follow a run's jump (RT_*): its callback as a static
// method given the item's argument, as an instance method of the
// delegate's target, a call with neither, or a static method's delegate
// (its target is the delegate) with no argument.
const (
	RunCalleeStatic        = int(C.RT_STATIC)
	RunCalleeInstance      = int(C.RT_INSTANCE)
	RunCalleeOther         = int(C.RT_OTHER)
	RunCalleeStaticNullArg = int(C.RT_STATIC_NULL_ARG)
)

// ReplayRunTail runs the scenario with the next call as callee; noWords:
// the run knows no delegate field; noArg: the item's argument is null;
// above: the call's ELT block is above the run's on the stack.
func ReplayRunTail(callee int, noWords, noArg, above bool) RunTail {
	r := C.run_tail_t{callee: C.int(callee)}
	if noWords {
		r.no_words = 1
	}
	if noArg {
		r.no_arg = 1
	}
	if above {
		r.above = 1
	}
	C.run_tail(&r)
	return RunTail{Joined: r.joined != 0, DepthIn: int(r.depth_in), DepthOut: int(r.depth_out)}
}
