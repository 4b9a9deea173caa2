// fake.c: a fake runtime for the production value reader and signal repair
// (values.c, signals.c and safecopy_amd64.S are symlinks to the profiler's, so
// that the go command hashes their contents). Synthetic objects start with their ClassID where the real
// ones hold a MethodTable pointer.
#include <signal.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "profiler.h"
#include "values.h"
#include "fake.h"
#include "eltargs.h"

static ProfInfoVtbl g_vtbl;
static void *g_self = &g_vtbl;
static fake_args g_args;
static clr_runtime g_fake_rt = {&g_self, &g_vtbl, 12};

const clr_runtime *fake_runtime(void) { return &g_fake_rt; }


// Like the runtime, it follows the type pointer: a class block whose first
// word is not zero names a further block ("the class's class data") that
// is read. A forged object whose type pointer leads to an unmapped page
// faults here, inside the profiling API.
static HRESULT f_class_from_object(void *self, ObjectID obj, ClassID *cls) {
    (void)self;
    ClassID c = *(ClassID *)obj;
    uintptr_t data = *(volatile uintptr_t *)c;
    if (data != 0)
        (void)*(volatile uintptr_t *)data;
    *cls = c;
    return S_OK;
}

// Classes name their module in their block's second word.
static HRESULT f_class_id_info(void *self, ClassID cls, ModuleID *mod, mdTypeDef *td) {
    (void)self;
    *mod = *(volatile uintptr_t *)(cls + 8);
    *td = 0x02000002;
    return S_OK;
}

int clr_module_known(uintptr_t mid) { return mid == FAKE_MODULE; }

static HRESULT f_is_array(void *self, ClassID cls, CorElementType *et, ClassID *ec, ULONG *rank) {
    (void)self; (void)cls; (void)et; (void)ec; (void)rank;
    return S_FALSE;
}

// Synthetic arrays: [class][u32 length][u32 pad][elements...]
static HRESULT f_array_info(void *self, ObjectID obj, ULONG32 rank, ULONG32 dims[], int lb[], BYTE **data) {
    (void)self;
    if (rank != 1)
        return E_INVALIDARG;
    dims[0] = *(uint32_t *)(obj + 8);
    lb[0] = 0;
    *data = (BYTE *)(obj + 16);
    return S_OK;
}

static uint32_t g_enter_calls, g_leave_calls;
uint32_t fake_enter_calls(void) { return g_enter_calls; }
uint32_t fake_leave_calls(void) { return g_leave_calls; }

static HRESULT f_enter3(void *self, FunctionID fid, COR_PRF_ELT_INFO elt, COR_PRF_FRAME_INFO *frame, ULONG *cb, COR_PRF_FUNCTION_ARGUMENT_INFO *ai) {
    (void)self; (void)fid; (void)elt;
    g_enter_calls++;
    *frame = 0;
    if (*cb < sizeof(COR_PRF_FUNCTION_ARGUMENT_INFO) + (g_args.n - 1) * sizeof(COR_PRF_FUNCTION_ARGUMENT_RANGE))
        return E_FAIL;
    ai->numRanges = g_args.n;
    ai->totalArgumentSize = 8 * g_args.n;
    for (uint32_t i = 0; i < g_args.n; i++) {
        ai->ranges[i].startAddress = g_args.at[i] != 0 ? (UINT_PTR)g_args.at[i] : (UINT_PTR)&g_args.slots[i];
        ai->ranges[i].length = 8;
    }
    return S_OK;
}

static HRESULT f_leave3(void *self, FunctionID fid, COR_PRF_ELT_INFO elt, COR_PRF_FRAME_INFO *frame,
                        COR_PRF_FUNCTION_ARGUMENT_RANGE *rv) {
    (void)self; (void)fid;
    g_leave_calls++;
    *frame = 0;
    rv->startAddress = g_args.ret_at != 0 ? (UINT_PTR)g_args.ret_at : g_args.ret_in_rax ? *(const uintptr_t *)elt + ELT_RAX : (UINT_PTR)&g_args.ret;
    rv->length = g_args.ret_len != 0 ? g_args.ret_len : 1;
    return S_OK;
}

static void f_runtime_segv(int sig, siginfo_t *si, void *ctx) {
    (void)si; (void)ctx;
    // Stands for the runtime's own handler: a real fault ends the test.
    signal(sig, SIG_DFL);
    raise(sig);
}

// Runs before signals.c's snapshot (priority 101): the "runtime" installs
// its fault handler first, as CoreCLR does before it loads a profiler.
__attribute__((constructor(100))) static void install_fake_runtime(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = f_runtime_segv;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

void fake_init(const clr_value_limits *lim) {
    g_vtbl.GetClassFromObject = f_class_from_object;
    g_vtbl.IsArrayClass = f_is_array;
    g_vtbl.GetClassIDInfo = f_class_id_info;
    g_vtbl.GetArrayObjectInfo = f_array_info;
    g_vtbl.GetFunctionEnter3Info = f_enter3;
    g_vtbl.GetFunctionLeave3Info = f_leave3;
    clr_values_init(&(clr_runtime){&g_self, &g_vtbl, 12}, lim, 1024);
    clr_signals_install();
}

void fake_set_args(const fake_args *a) { g_args = *a; }

void *fake_unmapped_page(void) {
    void *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}
