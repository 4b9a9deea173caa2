// signals.c: keep the runtime's fault handling intact with Go loaded.
//
// CoreCLR turns SIGSEGV into NullReferenceException and SIGFPE into
// DivideByZeroException. The Go runtime, when it initialises inside this
// library, installs its own SIGSEGV/SIGFPE/SIGBUS handlers (with an
// all-signals mask and its own flags) and forwards faults outside Go code to
// the handler it found. Two things then go wrong: the CLR's handler runs with
// Go's mask, which stays in force after the CLR leaves the handler by a
// non-local jump into the exception dispatcher (the next SIGFPE is blocked
// and kills the process), and it runs with Go's stack flags.
//
// So: snapshot the CLR's actions in a constructor that runs before Go's
// initialiser, and once Go has installed its handlers put a thin handler in
// front of them that carries the CLR's own mask and flags and calls Go's
// handler, which still tells Go faults (recovered as panics) from the CLR's.
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <stdatomic.h>
#include <ucontext.h>

#include "profiler.h"

static const int k_sigs[3] = {SIGSEGV, SIGFPE, SIGBUS};
static struct sigaction g_clr_action[3]; // what the runtime installed
static struct sigaction g_go_action[3];  // what was installed when we wrapped it (Go's)
static int g_wrapped[3];

// The runtime's action for its activation signal (SIGRTMIN), which
// restore_activation puts back.
static struct sigaction g_clr_activation;

// Priority 101 runs before the Go runtime's own initialiser in this library.
__attribute__((constructor(101))) static void snapshot_runtime_handlers(void) {
    for (int i = 0; i < 3; i++)
        sigaction(k_sigs[i], NULL, &g_clr_action[i]);
    sigaction(SIGRTMIN, NULL, &g_clr_activation);
}

// The runtime interrupts a thread it suspends (for a GC, or for a ReJIT
// request from another thread) with SIGRTMIN, whose handler it installs
// without SA_ONSTACK: the handler runs on the thread's own stack. The Go
// runtime, initialising in a library, adds SA_ONSTACK to every handler it
// leaves in place, and the activation handler then runs on the alternate
// signal stack. That is where the runtime's SIGSEGV handler keeps the point
// it returns to while it turns a fault into a NullReferenceException on the
// thread's own stack: an activation in that window writes over it, and the
// thread faults in the runtime's RtlRestoreContext, over and over: the
// process spins until it is killed. So the runtime's own flags are put
// back. Go needs no alternate stack for this signal: the runtime sends it
// only to its own threads, and Go runs on one only with it blocked
// (CLR_BLOCK_ACTIVATION).
// The handlers Go also changed for SIGINT, SIGTERM and SIGQUIT stay as Go
// set them: those signals may reach Go's threads, on goroutine stacks.
static void restore_activation(void) {
    struct sigaction cur;
    if (g_clr_activation.sa_sigaction == NULL || (g_clr_activation.sa_flags & SA_ONSTACK) ||
        sigaction(SIGRTMIN, NULL, &cur) != 0 || cur.sa_sigaction != g_clr_activation.sa_sigaction ||
        cur.sa_flags == g_clr_activation.sa_flags)
        return;
    sigaction(SIGRTMIN, &g_clr_activation, NULL);
}

extern char clr_safe_copy_fixup[];

static void forward_to_go(int sig, siginfo_t *info, void *ctx) {
    // A fault inside clr_safe_copy is the value reader meeting unreadable
    // memory: resume at its fixup, which returns -1. A fault inside a
    // guarded profiling-API call resumes after the call (CLR_GUARDED).
    // Nothing else is ours.
    if (sig == SIGSEGV || sig == SIGBUS) {
        ucontext_t *uc = ctx;
        uintptr_t rip = uc != NULL ? (uintptr_t)uc->uc_mcontext.gregs[REG_RIP] : 0;
        if (rip >= (uintptr_t)clr_safe_copy && rip < (uintptr_t)clr_safe_copy_fixup) {
            uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)clr_safe_copy_fixup;
            return;
        }
        if (uc != NULL && clr_guard_armed) {
            clr_guard_faulted();
            // Returning from the handler restores the thread's signal mask
            // (the kernel's sigreturn), then clr_guard_resume runs as if called:
            // below the red zone of the faulting frame, 16-byte aligned
            // less the return address a call pushes.
            uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
            sp = ((sp - 512) & ~(uintptr_t)15) - 8;
            uc->uc_mcontext.gregs[REG_RSP] = (greg_t)sp;
            uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)clr_guard_resume;
            return;
        }
    }
    for (int i = 0; i < 3; i++) {
        if (k_sigs[i] != sig)
            continue;
        struct sigaction *g = &g_go_action[i];
        if (g->sa_flags & SA_SIGINFO)
            g->sa_sigaction(sig, info, ctx);
        else if (g->sa_handler != SIG_DFL && g->sa_handler != SIG_IGN)
            g->sa_handler(sig);
        return;
    }
}

// Called once Go's runtime has installed its handlers: right after its
// initialiser returned (callbacks.c go_initialize).
void clr_signals_install(void) {
    restore_activation();
    for (int i = 0; i < 3; i++) {
        struct sigaction cur;
        if (g_wrapped[i] || sigaction(k_sigs[i], NULL, &cur) != 0)
            continue;
        // Without a runtime handler there is nothing to keep working.
        if (g_clr_action[i].sa_handler == SIG_DFL || g_clr_action[i].sa_handler == SIG_IGN)
            continue;
        // Whatever is installed now (Go's, or still the runtime's) is called
        // for every fault that is not a safe copy's.
        g_go_action[i] = cur;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = forward_to_go;
        sa.sa_mask = g_clr_action[i].sa_mask;
        sa.sa_flags = g_clr_action[i].sa_flags | SA_SIGINFO;
        if (sigaction(k_sigs[i], &sa, NULL) == 0)
            g_wrapped[i] = 1;
    }
}

// ---- flush before an unhandled exception ends the process ----------------
//
// CoreCLR ends a process with an unhandled exception by abort(): no Shutdown
// callback comes. Two ways in: the JIT-time check in Go (the thread's
// exception found no catcher in any traced frame and the runtime compiles
// the code that prints it), and, where the runtime leaves it in place (3.x;
// .NET 5+ restores the original SIGABRT action before aborting), a SIGABRT
// handler.
// Either flags the abort and waits, at most CLR_ABORT_WAIT_MS, while Go (on
// its own threads) drains, ends the open spans and exports; then the process
// dies as it would have.
#include <stdatomic.h>
#include <time.h>

enum { CLR_ABORT_WAIT_MS = 3000 };

static _Atomic int g_aborting, g_abort_flushed;
static struct sigaction g_prev_abrt;

int clr_abort_requested(void) { return atomic_load(&g_aborting); }
void clr_abort_flushed(void) { atomic_store(&g_abort_flushed, 1); }

// clr_abort_wait asks Go to flush and waits for it, once, bounded.
void clr_abort_wait(void) {
    if (atomic_exchange(&g_aborting, 1) == 0) {
        struct timespec ms = {0, 1000000};
        for (int i = 0; i < CLR_ABORT_WAIT_MS && !atomic_load(&g_abort_flushed); i++)
            nanosleep(&ms, NULL);
    }
}

static void on_abort(int sig, siginfo_t *info, void *ctx) {
    clr_abort_wait();
    if (g_prev_abrt.sa_flags & SA_SIGINFO) {
        if (g_prev_abrt.sa_sigaction != NULL)
            g_prev_abrt.sa_sigaction(sig, info, ctx);
    } else if (g_prev_abrt.sa_handler != SIG_DFL && g_prev_abrt.sa_handler != SIG_IGN) {
        g_prev_abrt.sa_handler(sig);
    }
}

void clr_abort_hook_install(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_abort;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGABRT, &sa, &g_prev_abrt);
}

// ---- a larger alternate signal stack for every managed thread (.NET 5+) ---
//
// .NET 8 sizes each thread's alternate signal stack at 12 KB, and its
// GC-suspension handler was seen to overflow it: on traced threads, and on
// the main thread of a GC-heavy app with clrotel attached and nothing
// traced (a core showed ~9 KB of handler frames under a ~3 KB kernel
// signal frame). That handler ran there only because Go had added
// SA_ONSTACK to it, which restore_activation now takes back; the fault
// handlers still run there, with Go's handler and this file's in front of
// the runtime's. So every thread the runtime tells us about (the main
// thread at Initialize, the others at ThreadCreated, on the new thread
// itself; any thread at its first traced call) gets 128 KB, from a pool so
// that thread churn reuses them.
//
// At thread exit the runtime's own stack must be freed, and only by one of
// us. .NET 5+ frees it in its TLS destructor, which runs before ours (its
// key is older), and only if it is still the one installed; otherwise it
// just takes ours off. So our destructor: if ours is still installed, put
// the runtime's back (it frees it later); if the runtime took ours off,
// free the runtime's, which it no longer tracks. Either way ours goes back
// to the pool. Not on .NET Core 3.1, which frees whatever stack is
// installed (size 0 there).
#include <sys/mman.h>

enum { ALT_POOL = 256 };
static size_t g_alt_size;
static pthread_key_t g_alt_key;
static _Atomic(void *) g_alt_pool[ALT_POOL];
static __thread void *t_alt __attribute__((tls_model("initial-exec")));
static __thread stack_t t_alt_prev __attribute__((tls_model("initial-exec"))); // the runtime's

static void alt_put(void *m) {
    for (int i = 0; i < ALT_POOL; i++) {
        void *want = NULL;
        if (atomic_compare_exchange_strong(&g_alt_pool[i], &want, m))
            return;
    }
    munmap(m, g_alt_size);
}

static void alt_thread_exit(void *m) {
    stack_t cur;
    if (sigaltstack(NULL, &cur) != 0)
        return;
    if (cur.ss_flags & SS_ONSTACK)
        return; // in a handler on it (cannot happen in a TLS destructor): keep both
    stack_t prev = t_alt_prev;
    if (!(cur.ss_flags & SS_DISABLE) && cur.ss_sp == m) {
        if (!(prev.ss_flags & SS_DISABLE) && prev.ss_sp != NULL) {
            sigaltstack(&prev, NULL); // the runtime finds its own and frees it
        } else {
            stack_t off = {.ss_flags = SS_DISABLE, .ss_size = MINSIGSTKSZ};
            sigaltstack(&off, NULL);
        }
    } else if ((cur.ss_flags & SS_DISABLE) && !(prev.ss_flags & SS_DISABLE) && prev.ss_sp != NULL) {
        munmap(prev.ss_sp, prev.ss_size); // the runtime let go of it
    }
    t_alt = NULL;
    alt_put(m);
}

int clr_alt_stack_init(size_t size) {
    if (size == 0)
        return 0;
    if (pthread_key_create(&g_alt_key, alt_thread_exit) != 0)
        return -1;
    g_alt_size = size;
    return 0;
}

void clr_thread_alt_stack(void) {
    stack_t cur;
    if (g_alt_size == 0 || t_alt != NULL || sigaltstack(NULL, &cur) != 0 || (cur.ss_flags & SS_ONSTACK))
        return;
    if (!(cur.ss_flags & SS_DISABLE) && cur.ss_size >= g_alt_size)
        return;
    void *m = NULL;
    for (int i = 0; i < ALT_POOL && m == NULL; i++)
        m = atomic_exchange(&g_alt_pool[i], NULL);
    if (m == NULL) {
        m = mmap(NULL, g_alt_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED)
            return;
    }
    stack_t ss = {.ss_sp = m, .ss_size = g_alt_size, .ss_flags = 0};
    if (sigaltstack(&ss, NULL) != 0) {
        alt_put(m);
        return;
    }
    t_alt_prev = cur;
    t_alt = m;
    pthread_setspecific(g_alt_key, m);
}
