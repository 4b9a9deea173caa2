// fake.c: a fake runtime for the production Activity.Current reader
// (ambient.c). Synthetic objects start with their ClassID where the real
// ones hold a MethodTable pointer; synthetic arrays are [class][u32
// length][u32 pad][elements], strings [class][u32 length][UTF-16 units].
#include <signal.h>
#include <string.h>
#include <sys/mman.h>

#include "ambient.h"
#include "profiler.h"
#include "values.h"
#include "fake.h"


static ProfInfoVtbl g_vtbl;
static void *g_self = &g_vtbl;
static uintptr_t g_tid, g_static, g_this;
static uint64_t g_asks;


static HRESULT f_current_thread(void *self, ThreadID *tid) {
    (void)self;
    *tid = g_tid;
    return g_tid ? S_OK : E_FAIL;
}

static HRESULT f_thread_static(void *self, ClassID cls, mdFieldDef field, ThreadID tid, void **addr) {
    (void)self; (void)cls; (void)field; (void)tid;
    g_asks++;
    *addr = (void *)g_static;
    return g_static ? S_OK : (HRESULT)0x80131351; // CORPROF_E_DATAINCOMPLETE
}

static HRESULT f_array_info(void *self, ObjectID obj, ULONG32 rank, ULONG32 dims[], int lb[], BYTE **data) {
    (void)self;
    if (rank != 1)
        return E_INVALIDARG;
    dims[0] = *(uint32_t *)(obj + 8);
    lb[0] = 0;
    *data = (BYTE *)(obj + 16);
    return S_OK;
}

static HRESULT f_enter3(void *self, FunctionID fid, COR_PRF_ELT_INFO elt, COR_PRF_FRAME_INFO *frame, ULONG *cb,
                        COR_PRF_FUNCTION_ARGUMENT_INFO *ai) {
    (void)self; (void)fid; (void)elt; (void)cb;
    *frame = 0;
    ai->numRanges = 1;
    ai->totalArgumentSize = 8;
    ai->ranges[0].startAddress = (UINT_PTR)&g_this;
    ai->ranges[0].length = 8;
    return S_OK;
}

static void f_runtime_segv(int sig, siginfo_t *si, void *ctx) {
    (void)si; (void)ctx;
    // Stands for the runtime's own handler: a real fault ends the test.
    signal(sig, SIG_DFL);
    raise(sig);
}

// The "runtime" installs its fault handler before signals.c's snapshot.
__attribute__((constructor(100))) static void install_fake_runtime(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = f_runtime_segv;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

void fake_init(void) {
    g_vtbl.GetCurrentThreadID = f_current_thread;
    g_vtbl.GetThreadStaticAddress = f_thread_static;
    g_vtbl.GetArrayObjectInfo = f_array_info;
    g_vtbl.GetFunctionEnter3Info = f_enter3;
    clr_ambient_init(&(clr_runtime){&g_self, &g_vtbl, 12});
    clr_signals_install();
}

void fake_set_thread(uintptr_t tid, uintptr_t static_addr) {
    g_tid = tid;
    g_static = static_addr;
}

uint64_t fake_static_asks(void) { return g_asks; }
void fake_set_this(uintptr_t obj) { g_this = obj; }

void *fake_unmapped_page(void) {
    void *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}
