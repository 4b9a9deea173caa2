// clrapi.h: the part of the CoreCLR profiling + metadata ABI that clrotel calls, for Linux x64 (LP64, SysV, 2-byte WCHAR).
// Vtable slot orders follow corprof.idl (profiler) and cor.h (IMetaDataImport/2) of dotnet/runtime; see clrapi_check.c.
// Declarations only (types, GUIDs, slot numbers, constants); no logic.
#ifndef CLROTEL_CLRAPI_H
#define CLROTEL_CLRAPI_H

#include <stdint.h>

// ---- scalar types ----
typedef int32_t HRESULT;
typedef int32_t BOOL;
typedef uint32_t ULONG, DWORD, ULONG32;
typedef uint16_t WCHAR; // UTF-16 code unit, as on Linux CoreCLR
typedef uint8_t BYTE;
typedef const BYTE *LPCBYTE;
typedef uintptr_t UINT_PTR, SIZE_T;

// opaque runtime ids (pointer-sized)
typedef uintptr_t FunctionID, ClassID, ModuleID, ObjectID, ThreadID, AppDomainID, AssemblyID, ReJITID, GCHandleID,
    ProcessID, ContextID;
typedef uintptr_t COR_PRF_ELT_INFO, COR_PRF_FRAME_INFO;
typedef uintptr_t EVENTPIPE_PROVIDER, EVENTPIPE_EVENT;
typedef uint64_t EVENTPIPE_SESSION;

// metadata tokens: high byte = table (mdt*), low 3 bytes = row
typedef uint32_t mdToken, mdModule, mdTypeRef, mdTypeDef, mdFieldDef, mdMethodDef, mdParamDef, mdInterfaceImpl,
    mdMemberRef, mdCustomAttribute, mdPermission, mdSignature, mdEvent, mdProperty, mdModuleRef, mdTypeSpec,
    mdString, mdGenericParam, mdMethodSpec, mdGenericParamConstraint;
typedef uint32_t CorElementType; // ELEMENT_TYPE_* below
typedef const uint8_t *PCCOR_SIGNATURE; // signature blob
typedef const void *UVCP_CONSTANT;      // constant value blob
typedef const char *MDUTF8CSTR;
typedef void *HCORENUM; // metadata enumerator handle; release with CloseEnum

// enum-typed out parameters are 4 bytes wide
typedef uint32_t COR_PRF_STATIC_TYPE, COR_PRF_RUNTIME_TYPE, COR_PRF_GC_GENERATION, COR_PRF_CLAUSE_TYPE;

typedef struct { uint32_t Data1; uint16_t Data2, Data3; uint8_t Data4[8]; } GUID;
typedef const GUID *REFGUID, *REFIID, *LPCGUID;

// ---- structs passed through the profiling API ----
typedef struct { UINT_PTR startAddress; ULONG length; } COR_PRF_FUNCTION_ARGUMENT_RANGE;
typedef struct {
    ULONG numRanges;
    ULONG totalArgumentSize;
    COR_PRF_FUNCTION_ARGUMENT_RANGE ranges[1]; // really numRanges entries
} COR_PRF_FUNCTION_ARGUMENT_INFO;
typedef struct { mdFieldDef ridOfField; ULONG ulOffset; } COR_FIELD_OFFSET;
typedef struct { UINT_PTR startAddress; SIZE_T size; } COR_PRF_CODE_INFO;
typedef struct { ULONG32 oldOffset, newOffset; BOOL fAccurate; } COR_IL_MAP;
typedef struct { ULONG32 ilOffset, nativeStartOffset, nativeEndOffset; } COR_DEBUG_IL_TO_NATIVE_MAP;
typedef struct {
    COR_PRF_GC_GENERATION generation;
    ObjectID rangeStart;
    UINT_PTR rangeLength, rangeLengthReserved;
} COR_PRF_GC_GENERATION_RANGE;
typedef struct {
    COR_PRF_CLAUSE_TYPE clauseType;
    UINT_PTR programCounter, framePointer, shadowStackPointer;
} COR_PRF_EX_CLAUSE_INFO;
typedef struct {
    const WCHAR *providerName;
    uint64_t keywords;
    uint32_t loggingLevel;
    const WCHAR *filterData;
} COR_PRF_EVENTPIPE_PROVIDER_CONFIG;
typedef struct { uint32_t type, elementType; const WCHAR *name; } COR_PRF_EVENTPIPE_PARAM_DESC;
typedef struct { uint64_t ptr; uint32_t size, reserved; } COR_PRF_EVENT_DATA;

// ---- hook and callback function types (plain SysV) ----
// FunctionIDOrClientID is a pointer-sized union of FunctionID and the mapper's client id: passed as UINT_PTR.
typedef void (*FunctionEnter3WithInfo)(UINT_PTR functionIDOrClientID, COR_PRF_ELT_INFO eltInfo);
typedef void (*FunctionLeave3WithInfo)(UINT_PTR functionIDOrClientID, COR_PRF_ELT_INFO eltInfo);
typedef void (*FunctionTailcall3WithInfo)(UINT_PTR functionIDOrClientID, COR_PRF_ELT_INFO eltInfo);
typedef void (*FunctionEnter3)(UINT_PTR functionIDOrClientID);
typedef void (*FunctionLeave3)(UINT_PTR functionIDOrClientID);
typedef void (*FunctionTailcall3)(UINT_PTR functionIDOrClientID);
typedef void (*FunctionEnter2)(FunctionID funcId, UINT_PTR clientData, COR_PRF_FRAME_INFO func,
                               COR_PRF_FUNCTION_ARGUMENT_INFO *argumentInfo);
typedef void (*FunctionLeave2)(FunctionID funcId, UINT_PTR clientData, COR_PRF_FRAME_INFO func,
                               COR_PRF_FUNCTION_ARGUMENT_RANGE *retvalRange);
typedef void (*FunctionTailcall2)(FunctionID funcId, UINT_PTR clientData, COR_PRF_FRAME_INFO func);
typedef void (*FunctionEnter)(FunctionID funcId);
typedef void (*FunctionLeave)(FunctionID funcId);
typedef void (*FunctionTailcall)(FunctionID funcId);
typedef UINT_PTR (*FunctionIDMapper)(FunctionID funcId, BOOL *pbHookFunction);
typedef UINT_PTR (*FunctionIDMapper2)(FunctionID funcId, void *clientData, BOOL *pbHookFunction);
typedef HRESULT (*StackSnapshotCallback)(FunctionID funcId, UINT_PTR ip, COR_PRF_FRAME_INFO frameInfo,
                                         ULONG32 contextSize, BYTE context[], void *clientData);
typedef BOOL (*ObjectReferenceCallback)(ObjectID root, ObjectID *reference, void *clientData);

// ---- HRESULTs ----
#define S_OK ((HRESULT)0)
#define S_FALSE ((HRESULT)1)
#define E_NOTIMPL ((HRESULT)0x80004001)
#define E_NOINTERFACE ((HRESULT)0x80004002)
#define E_FAIL ((HRESULT)0x80004005)
#define E_OUTOFMEMORY ((HRESULT)0x8007000E)
#define E_INVALIDARG ((HRESULT)0x80070057)
#define CLASS_E_NOAGGREGATION ((HRESULT)0x80040110)
#define CLASS_E_CLASSNOTAVAILABLE ((HRESULT)0x80040111)
// profiling-API failures (facility URT, 0x8013xxxx)
#define CORPROF_E_FUNCTION_NOT_COMPILED ((HRESULT)0x80131350)
#define CORPROF_E_DATAINCOMPLETE ((HRESULT)0x80131351)
#define CORPROF_E_FUNCTION_NOT_IL ((HRESULT)0x80131354)
#define CORPROF_E_NOT_MANAGED_THREAD ((HRESULT)0x80131355)
#define CORPROF_E_CALL_ONLY_FROM_INIT ((HRESULT)0x80131356)
#define CORPROF_E_NOT_YET_AVAILABLE ((HRESULT)0x8013135B)
#define CORPROF_E_STACKSNAPSHOT_INVALID_TGT_THREAD ((HRESULT)0x8013135E)
#define CORPROF_E_STACKSNAPSHOT_UNMANAGED_CTX ((HRESULT)0x8013135F)
#define CORPROF_E_STACKSNAPSHOT_UNSAFE ((HRESULT)0x80131360)
#define CORPROF_E_STACKSNAPSHOT_ABORTED ((HRESULT)0x80131361)
#define CORPROF_E_LITERALS_HAVE_NO_ADDRESS ((HRESULT)0x80131362)
#define CORPROF_E_UNSUPPORTED_CALL_SEQUENCE ((HRESULT)0x80131363)
#define CORPROF_E_ASYNCHRONOUS_UNSAFE ((HRESULT)0x80131364)
#define CORPROF_E_CLASSID_IS_ARRAY ((HRESULT)0x80131365)
#define CORPROF_E_CLASSID_IS_COMPOSITE ((HRESULT)0x80131366)
#define CORPROF_E_PROFILER_DETACHING ((HRESULT)0x80131367)
#define CORPROF_E_RUNTIME_UNINITIALIZED ((HRESULT)0x80131371)
#define CORPROF_E_PROFILER_NOT_YET_INITIALIZED ((HRESULT)0x80131373)
#define CORPROF_E_INCONSISTENT_WITH_FLAGS ((HRESULT)0x80131374)
#define CORPROF_E_MODULE_IS_DYNAMIC ((HRESULT)0x8013137A)
#define CORPROF_E_REJIT_NOT_ENABLED ((HRESULT)0x8013137C)
#define CORPROF_E_FUNCTION_IS_COLLECTIBLE ((HRESULT)0x8013137E)
#define CORPROF_E_SUSPENSION_IN_PROGRESS ((HRESULT)0x80131388)

// ---- interface ids ----
static const GUID IID_IUnknown = {0x00000000, 0x0000, 0x0000, {0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}};
static const GUID IID_IClassFactory = {0x00000001, 0x0000, 0x0000, {0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}};
static const GUID IID_IMetaDataImport = {0x7dac8207, 0xd3ae, 0x4c75, {0x9b, 0x67, 0x92, 0x80, 0x1a, 0x49, 0x7d, 0x44}};
static const GUID IID_IMetaDataImport2 = {0xfce5efa0, 0x8bba, 0x4f8e, {0xa0, 0x36, 0x8f, 0x20, 0x22, 0xb0, 0x84, 0x66}};

static const GUID IID_ICorProfilerCallback = {0x176fbed1, 0xa55c, 0x4796, {0x98, 0xca, 0xa9, 0xda, 0x0e, 0xf8, 0x83, 0xe7}};
static const GUID IID_ICorProfilerCallback2 = {0x8a8cc829, 0xccf2, 0x49fe, {0xbb, 0xae, 0x0f, 0x02, 0x22, 0x28, 0x07, 0x1a}};
static const GUID IID_ICorProfilerCallback3 = {0x4fd2ed52, 0x7731, 0x4b8d, {0x94, 0x69, 0x03, 0xd2, 0xcc, 0x30, 0x86, 0xc5}};
static const GUID IID_ICorProfilerCallback4 = {0x7b63b2e3, 0x107d, 0x4d48, {0xb2, 0xf6, 0xf6, 0x1e, 0x22, 0x94, 0x70, 0xd2}};
static const GUID IID_ICorProfilerCallback5 = {0x8dfba405, 0x8c9f, 0x45f8, {0xbf, 0xfa, 0x83, 0xb1, 0x4c, 0xef, 0x78, 0xb5}};
static const GUID IID_ICorProfilerCallback6 = {0xfc13df4b, 0x4448, 0x4f4f, {0x95, 0x0c, 0xba, 0x8d, 0x19, 0xd0, 0x0c, 0x36}};
static const GUID IID_ICorProfilerCallback7 = {0xf76a2dba, 0x1d52, 0x4539, {0x86, 0x6c, 0x2a, 0xa5, 0x18, 0xf9, 0xef, 0xc3}};
static const GUID IID_ICorProfilerCallback8 = {0x5bed9b15, 0xc079, 0x4d47, {0xbf, 0xe2, 0x21, 0x5a, 0x14, 0x0c, 0x07, 0xe0}};
static const GUID IID_ICorProfilerCallback9 = {0x27583ec3, 0xc8f5, 0x482f, {0x80, 0x52, 0x19, 0x4b, 0x8c, 0xe4, 0x70, 0x5a}};
static const GUID IID_ICorProfilerCallback10 = {0xcec5b60e, 0xc69c, 0x495f, {0x87, 0xf6, 0x84, 0xd2, 0x8e, 0xe1, 0x6f, 0xfb}};
static const GUID IID_ICorProfilerCallback11 = {0x42350846, 0xaaed, 0x47f7, {0xb1, 0x28, 0xfd, 0x0c, 0x98, 0x88, 0x1c, 0xde}};

static const GUID IID_ICorProfilerInfo = {0x28b5557d, 0x3f3f, 0x48b4, {0x90, 0xb2, 0x5f, 0x9e, 0xea, 0x2f, 0x6c, 0x48}};
static const GUID IID_ICorProfilerInfo2 = {0xcc0935cd, 0xa518, 0x487d, {0xb0, 0xbb, 0xa9, 0x32, 0x14, 0xe6, 0x54, 0x78}};
static const GUID IID_ICorProfilerInfo3 = {0xb555ed4f, 0x452a, 0x4e54, {0x8b, 0x39, 0xb5, 0x36, 0x0b, 0xad, 0x32, 0xa0}};
static const GUID IID_ICorProfilerInfo4 = {0x0d8fdcaa, 0x6257, 0x47bf, {0xb1, 0xbf, 0x94, 0xda, 0xc8, 0x84, 0x66, 0xee}};
static const GUID IID_ICorProfilerInfo5 = {0x07602928, 0xce38, 0x4b83, {0x81, 0xe7, 0x74, 0xad, 0xaf, 0x78, 0x12, 0x14}};
static const GUID IID_ICorProfilerInfo6 = {0xf30a070d, 0xbffb, 0x46a7, {0xb1, 0xd8, 0x87, 0x81, 0xef, 0x7b, 0x69, 0x8a}};
static const GUID IID_ICorProfilerInfo7 = {0x9aeecc0d, 0x63e0, 0x4187, {0x8c, 0x00, 0xe3, 0x12, 0xf5, 0x03, 0xf6, 0x63}};
static const GUID IID_ICorProfilerInfo8 = {0xc5ac80a6, 0x782e, 0x4716, {0x80, 0x44, 0x39, 0x59, 0x8c, 0x60, 0xcf, 0xbf}};
static const GUID IID_ICorProfilerInfo9 = {0x008170db, 0xf8cc, 0x4796, {0x9a, 0x51, 0xdc, 0x8a, 0xa0, 0xb4, 0x70, 0x12}};
static const GUID IID_ICorProfilerInfo10 = {0x2f1b5152, 0xc869, 0x40c9, {0xaa, 0x5f, 0x3a, 0xbe, 0x02, 0x6b, 0xd7, 0x20}};
static const GUID IID_ICorProfilerInfo11 = {0x06398876, 0x8987, 0x4154, {0xb6, 0x21, 0x40, 0xa0, 0x0d, 0x6e, 0x4d, 0x04}};
static const GUID IID_ICorProfilerInfo12 = {0x27b24ccd, 0x1cb1, 0x47c5, {0x96, 0xee, 0x98, 0x19, 0x0d, 0xc3, 0x09, 0x59}};
static const GUID IID_ICorProfilerInfo13 = {0x6e6c7ee2, 0x0701, 0x4ec2, {0x9d, 0x29, 0x2e, 0x87, 0x33, 0xb6, 0x69, 0x34}};
static const GUID IID_ICorProfilerInfo14 = {0xf460e352, 0xd76d, 0x4fe9, {0x83, 0x5f, 0xf6, 0xaf, 0x9d, 0x6e, 0x86, 0x2d}};
static const GUID IID_ICorProfilerInfo15 = {0xb446462d, 0xbd22, 0x41dd, {0x87, 0x2d, 0xdc, 0x71, 0x4c, 0x49, 0xeb, 0x56}};

// ---- ICorProfilerCallback..11: slot of each method in the callback vtable ----
// Slots 0-2 are QueryInterface, AddRef, Release. CB_COUNT_N = slots of ICorProfilerCallbackN.
enum {
    // ICorProfilerCallback
    CB_Initialize = 3,
    CB_Shutdown = 4,
    CB_AppDomainCreationStarted = 5,
    CB_AppDomainCreationFinished = 6,
    CB_AppDomainShutdownStarted = 7,
    CB_AppDomainShutdownFinished = 8,
    CB_AssemblyLoadStarted = 9,
    CB_AssemblyLoadFinished = 10,
    CB_AssemblyUnloadStarted = 11,
    CB_AssemblyUnloadFinished = 12,
    CB_ModuleLoadStarted = 13,
    CB_ModuleLoadFinished = 14,
    CB_ModuleUnloadStarted = 15,
    CB_ModuleUnloadFinished = 16,
    CB_ModuleAttachedToAssembly = 17,
    CB_ClassLoadStarted = 18,
    CB_ClassLoadFinished = 19,
    CB_ClassUnloadStarted = 20,
    CB_ClassUnloadFinished = 21,
    CB_FunctionUnloadStarted = 22,
    CB_JITCompilationStarted = 23,
    CB_JITCompilationFinished = 24,
    CB_JITCachedFunctionSearchStarted = 25,
    CB_JITCachedFunctionSearchFinished = 26,
    CB_JITFunctionPitched = 27,
    CB_JITInlining = 28,
    CB_ThreadCreated = 29,
    CB_ThreadDestroyed = 30,
    CB_ThreadAssignedToOSThread = 31,
    CB_RemotingClientInvocationStarted = 32,
    CB_RemotingClientSendingMessage = 33,
    CB_RemotingClientReceivingReply = 34,
    CB_RemotingClientInvocationFinished = 35,
    CB_RemotingServerReceivingMessage = 36,
    CB_RemotingServerInvocationStarted = 37,
    CB_RemotingServerInvocationReturned = 38,
    CB_RemotingServerSendingReply = 39,
    CB_UnmanagedToManagedTransition = 40,
    CB_ManagedToUnmanagedTransition = 41,
    CB_RuntimeSuspendStarted = 42,
    CB_RuntimeSuspendFinished = 43,
    CB_RuntimeSuspendAborted = 44,
    CB_RuntimeResumeStarted = 45,
    CB_RuntimeResumeFinished = 46,
    CB_RuntimeThreadSuspended = 47,
    CB_RuntimeThreadResumed = 48,
    CB_MovedReferences = 49,
    CB_ObjectAllocated = 50,
    CB_ObjectsAllocatedByClass = 51,
    CB_ObjectReferences = 52,
    CB_RootReferences = 53,
    CB_ExceptionThrown = 54,
    CB_ExceptionSearchFunctionEnter = 55,
    CB_ExceptionSearchFunctionLeave = 56,
    CB_ExceptionSearchFilterEnter = 57,
    CB_ExceptionSearchFilterLeave = 58,
    CB_ExceptionSearchCatcherFound = 59,
    CB_ExceptionOSHandlerEnter = 60,
    CB_ExceptionOSHandlerLeave = 61,
    CB_ExceptionUnwindFunctionEnter = 62,
    CB_ExceptionUnwindFunctionLeave = 63,
    CB_ExceptionUnwindFinallyEnter = 64,
    CB_ExceptionUnwindFinallyLeave = 65,
    CB_ExceptionCatcherEnter = 66,
    CB_ExceptionCatcherLeave = 67,
    CB_COMClassicVTableCreated = 68,
    CB_COMClassicVTableDestroyed = 69,
    CB_ExceptionCLRCatcherFound = 70,
    CB_ExceptionCLRCatcherExecute = 71,
    CB_COUNT_1 = 72,
    // ICorProfilerCallback2
    CB_ThreadNameChanged = 72,
    CB_GarbageCollectionStarted = 73,
    CB_SurvivingReferences = 74,
    CB_GarbageCollectionFinished = 75,
    CB_FinalizeableObjectQueued = 76,
    CB_RootReferences2 = 77,
    CB_HandleCreated = 78,
    CB_HandleDestroyed = 79,
    CB_COUNT_2 = 80,
    // ICorProfilerCallback3
    CB_InitializeForAttach = 80,
    CB_ProfilerAttachComplete = 81,
    CB_ProfilerDetachSucceeded = 82,
    CB_COUNT_3 = 83,
    // ICorProfilerCallback4
    CB_ReJITCompilationStarted = 83,
    CB_GetReJITParameters = 84,
    CB_ReJITCompilationFinished = 85,
    CB_ReJITError = 86,
    CB_MovedReferences2 = 87,
    CB_SurvivingReferences2 = 88,
    CB_COUNT_4 = 89,
    // ICorProfilerCallback5
    CB_ConditionalWeakTableElementReferences = 89,
    CB_COUNT_5 = 90,
    // ICorProfilerCallback6
    CB_GetAssemblyReferences = 90,
    CB_COUNT_6 = 91,
    // ICorProfilerCallback7
    CB_ModuleInMemorySymbolsUpdated = 91,
    CB_COUNT_7 = 92,
    // ICorProfilerCallback8
    CB_DynamicMethodJITCompilationStarted = 92,
    CB_DynamicMethodJITCompilationFinished = 93,
    CB_COUNT_8 = 94,
    // ICorProfilerCallback9
    CB_DynamicMethodUnloaded = 94,
    CB_COUNT_9 = 95,
    // ICorProfilerCallback10
    CB_EventPipeEventDelivered = 95,
    CB_EventPipeProviderCreated = 96,
    CB_COUNT_10 = 97,
    // ICorProfilerCallback11
    CB_LoadAsNotificationOnly = 97,
    CB_COUNT_11 = 98,
};

// Slots in the vtable of each ICorProfilerInfoN. Info13-15 exist in corprof.idl but are not declared below.
enum {
    INFO_COUNT_1 = 36, INFO_COUNT_2 = 57, INFO_COUNT_3 = 71, INFO_COUNT_4 = 81, INFO_COUNT_5 = 83,
    INFO_COUNT_6 = 84, INFO_COUNT_7 = 87, INFO_COUNT_8 = 90, INFO_COUNT_9 = 93, INFO_COUNT_10 = 99,
    INFO_COUNT_11 = 101, INFO_COUNT_12 = 108, INFO_COUNT_13 = 111, INFO_COUNT_14 = 114, INFO_COUNT_15 = 115,
};

// ---- ICorProfilerInfo .. ICorProfilerInfo12 as one flat vtable ----
// Each version extends the previous one, so an ICorProfilerInfoN vtable may be read through this struct up to
// INFO_COUNT_N slots. Interface pointers returned through out-parameters are typed void *.
typedef struct ProfInfoVtbl {
    // IUnknown (slots 0-2)
    HRESULT (*QueryInterface)(void *self, REFIID riid, void **ppv);
    ULONG (*AddRef)(void *self);
    ULONG (*Release)(void *self);

    // ICorProfilerInfo (from slot 3)
    HRESULT (*GetClassFromObject)(void *self, ObjectID objectId, ClassID *pClassId);
    HRESULT (*GetClassFromToken)(void *self, ModuleID moduleId, mdTypeDef typeDef, ClassID *pClassId);
    HRESULT (*GetCodeInfo)(void *self, FunctionID functionId, LPCBYTE *pStart, ULONG *pcSize);
    HRESULT (*GetEventMask)(void *self, DWORD *pdwEvents);
    HRESULT (*GetFunctionFromIP)(void *self, LPCBYTE ip, FunctionID *pFunctionId);
    HRESULT (*GetFunctionFromToken)(void *self, ModuleID moduleId, mdToken token, FunctionID *pFunctionId);
    HRESULT (*GetHandleFromThread)(void *self, ThreadID threadId, void **phThread);
    HRESULT (*GetObjectSize)(void *self, ObjectID objectId, ULONG *pcSize);
    HRESULT (*IsArrayClass)(void *self, ClassID classId, CorElementType *pBaseElemType, ClassID *pBaseClassId,
                            ULONG *pcRank);
    HRESULT (*GetThreadInfo)(void *self, ThreadID threadId, DWORD *pdwWin32ThreadId);
    HRESULT (*GetCurrentThreadID)(void *self, ThreadID *pThreadId);
    HRESULT (*GetClassIDInfo)(void *self, ClassID classId, ModuleID *pModuleId, mdTypeDef *pTypeDefToken);
    HRESULT (*GetFunctionInfo)(void *self, FunctionID functionId, ClassID *pClassId, ModuleID *pModuleId,
                               mdToken *pToken);
    HRESULT (*SetEventMask)(void *self, DWORD dwEvents);
    HRESULT (*SetEnterLeaveFunctionHooks)(void *self, FunctionEnter pFuncEnter, FunctionLeave pFuncLeave,
                                          FunctionTailcall pFuncTailcall);
    HRESULT (*SetFunctionIDMapper)(void *self, FunctionIDMapper pFunc);
    HRESULT (*GetTokenAndMetaDataFromFunction)(void *self, FunctionID functionId, REFIID riid, void **ppImport,
                                               mdToken *pToken);
    HRESULT (*GetModuleInfo)(void *self, ModuleID moduleId, LPCBYTE *ppBaseLoadAddress, ULONG cchName,
                             ULONG *pcchName, WCHAR szName[], AssemblyID *pAssemblyId);
    HRESULT (*GetModuleMetaData)(void *self, ModuleID moduleId, DWORD dwOpenFlags, REFIID riid, void **ppOut);
    HRESULT (*GetILFunctionBody)(void *self, ModuleID moduleId, mdMethodDef methodId, LPCBYTE *ppMethodHeader,
                                 ULONG *pcbMethodSize);
    HRESULT (*GetILFunctionBodyAllocator)(void *self, ModuleID moduleId, void **ppMalloc);
    HRESULT (*SetILFunctionBody)(void *self, ModuleID moduleId, mdMethodDef methodid, LPCBYTE pbNewILMethodHeader);
    HRESULT (*GetAppDomainInfo)(void *self, AppDomainID appDomainId, ULONG cchName, ULONG *pcchName,
                                WCHAR szName[], ProcessID *pProcessId);
    HRESULT (*GetAssemblyInfo)(void *self, AssemblyID assemblyId, ULONG cchName, ULONG *pcchName, WCHAR szName[],
                               AppDomainID *pAppDomainId, ModuleID *pModuleId);
    HRESULT (*SetFunctionReJIT)(void *self, FunctionID functionId); // deprecated
    HRESULT (*ForceGC)(void *self);
    HRESULT (*SetILInstrumentedCodeMap)(void *self, FunctionID functionId, BOOL fStartJit, ULONG cILMapEntries,
                                        COR_IL_MAP rgILMapEntries[]);
    HRESULT (*GetInprocInspectionInterface)(void *self, void **ppicd);   // deprecated
    HRESULT (*GetInprocInspectionIThisThread)(void *self, void **ppicd); // deprecated
    HRESULT (*GetThreadContext)(void *self, ThreadID threadId, ContextID *pContextId);
    HRESULT (*BeginInprocDebugging)(void *self, BOOL fThisThreadOnly, DWORD *pdwProfilerContext); // deprecated
    HRESULT (*EndInprocDebugging)(void *self, DWORD dwProfilerContext);                           // deprecated
    HRESULT (*GetILToNativeMapping)(void *self, FunctionID functionId, ULONG32 cMap, ULONG32 *pcMap,
                                    COR_DEBUG_IL_TO_NATIVE_MAP map[]);

    // ICorProfilerInfo2 (from slot 36)
    HRESULT (*DoStackSnapshot)(void *self, ThreadID thread, StackSnapshotCallback callback, ULONG32 infoFlags,
                               void *clientData, BYTE context[], ULONG32 contextSize);
    HRESULT (*SetEnterLeaveFunctionHooks2)(void *self, FunctionEnter2 pFuncEnter, FunctionLeave2 pFuncLeave,
                                           FunctionTailcall2 pFuncTailcall);
    HRESULT (*GetFunctionInfo2)(void *self, FunctionID funcId, COR_PRF_FRAME_INFO frameInfo, ClassID *pClassId,
                                ModuleID *pModuleId, mdToken *pToken, ULONG32 cTypeArgs, ULONG32 *pcTypeArgs,
                                ClassID typeArgs[]);
    HRESULT (*GetStringLayout)(void *self, ULONG *pBufferLengthOffset, ULONG *pStringLengthOffset,
                               ULONG *pBufferOffset);
    HRESULT (*GetClassLayout)(void *self, ClassID classID, COR_FIELD_OFFSET rFieldOffset[], ULONG cFieldOffset,
                              ULONG *pcFieldOffset, ULONG *pulClassSize);
    HRESULT (*GetClassIDInfo2)(void *self, ClassID classId, ModuleID *pModuleId, mdTypeDef *pTypeDefToken,
                               ClassID *pParentClassId, ULONG32 cNumTypeArgs, ULONG32 *pcNumTypeArgs,
                               ClassID typeArgs[]);
    HRESULT (*GetCodeInfo2)(void *self, FunctionID functionID, ULONG32 cCodeInfos, ULONG32 *pcCodeInfos,
                            COR_PRF_CODE_INFO codeInfos[]);
    HRESULT (*GetClassFromTokenAndTypeArgs)(void *self, ModuleID moduleID, mdTypeDef typeDef, ULONG32 cTypeArgs,
                                            ClassID typeArgs[], ClassID *pClassID);
    HRESULT (*GetFunctionFromTokenAndTypeArgs)(void *self, ModuleID moduleID, mdMethodDef funcDef, ClassID classId,
                                               ULONG32 cTypeArgs, ClassID typeArgs[], FunctionID *pFunctionID);
    HRESULT (*EnumModuleFrozenObjects)(void *self, ModuleID moduleID, void **ppEnum);
    HRESULT (*GetArrayObjectInfo)(void *self, ObjectID objectId, ULONG32 cDimensions, ULONG32 pDimensionSizes[],
                                  int pDimensionLowerBounds[], BYTE **ppData);
    HRESULT (*GetBoxClassLayout)(void *self, ClassID classId, ULONG32 *pBufferOffset);
    HRESULT (*GetThreadAppDomain)(void *self, ThreadID threadId, AppDomainID *pAppDomainId);
    HRESULT (*GetRVAStaticAddress)(void *self, ClassID classId, mdFieldDef fieldToken, void **ppAddress);
    HRESULT (*GetAppDomainStaticAddress)(void *self, ClassID classId, mdFieldDef fieldToken, AppDomainID appDomainId,
                                         void **ppAddress);
    HRESULT (*GetThreadStaticAddress)(void *self, ClassID classId, mdFieldDef fieldToken, ThreadID threadId,
                                      void **ppAddress);
    HRESULT (*GetContextStaticAddress)(void *self, ClassID classId, mdFieldDef fieldToken, ContextID contextId,
                                       void **ppAddress);
    HRESULT (*GetStaticFieldInfo)(void *self, ClassID classId, mdFieldDef fieldToken, COR_PRF_STATIC_TYPE *pFieldInfo);
    HRESULT (*GetGenerationBounds)(void *self, ULONG cObjectRanges, ULONG *pcObjectRanges,
                                   COR_PRF_GC_GENERATION_RANGE ranges[]);
    HRESULT (*GetObjectGeneration)(void *self, ObjectID objectId, COR_PRF_GC_GENERATION_RANGE *range);
    HRESULT (*GetNotifiedExceptionClauseInfo)(void *self, COR_PRF_EX_CLAUSE_INFO *pinfo);

    // ICorProfilerInfo3 (from slot 57)
    HRESULT (*EnumJITedFunctions)(void *self, void **ppEnum);
    HRESULT (*RequestProfilerDetach)(void *self, DWORD dwExpectedCompletionMilliseconds);
    HRESULT (*SetFunctionIDMapper2)(void *self, FunctionIDMapper2 pFunc, void *clientData);
    HRESULT (*GetStringLayout2)(void *self, ULONG *pStringLengthOffset, ULONG *pBufferOffset);
    HRESULT (*SetEnterLeaveFunctionHooks3)(void *self, FunctionEnter3 pFuncEnter3, FunctionLeave3 pFuncLeave3,
                                           FunctionTailcall3 pFuncTailcall3);
    HRESULT (*SetEnterLeaveFunctionHooks3WithInfo)(void *self, FunctionEnter3WithInfo pFuncEnter3WithInfo,
                                                   FunctionLeave3WithInfo pFuncLeave3WithInfo,
                                                   FunctionTailcall3WithInfo pFuncTailcall3WithInfo);
    HRESULT (*GetFunctionEnter3Info)(void *self, FunctionID functionId, COR_PRF_ELT_INFO eltInfo,
                                     COR_PRF_FRAME_INFO *pFrameInfo, ULONG *pcbArgumentInfo,
                                     COR_PRF_FUNCTION_ARGUMENT_INFO *pArgumentInfo);
    HRESULT (*GetFunctionLeave3Info)(void *self, FunctionID functionId, COR_PRF_ELT_INFO eltInfo,
                                     COR_PRF_FRAME_INFO *pFrameInfo, COR_PRF_FUNCTION_ARGUMENT_RANGE *pRetvalRange);
    HRESULT (*GetFunctionTailcall3Info)(void *self, FunctionID functionId, COR_PRF_ELT_INFO eltInfo,
                                        COR_PRF_FRAME_INFO *pFrameInfo);
    HRESULT (*EnumModules)(void *self, void **ppEnum);
    HRESULT (*GetRuntimeInformation)(void *self, uint16_t *pClrInstanceId, COR_PRF_RUNTIME_TYPE *pRuntimeType,
                                     uint16_t *pMajorVersion, uint16_t *pMinorVersion, uint16_t *pBuildNumber,
                                     uint16_t *pQFEVersion, ULONG cchVersionString, ULONG *pcchVersionString,
                                     WCHAR szVersionString[]);
    HRESULT (*GetThreadStaticAddress2)(void *self, ClassID classId, mdFieldDef fieldToken, AppDomainID appDomainId,
                                       ThreadID threadId, void **ppAddress);
    HRESULT (*GetAppDomainsContainingModule)(void *self, ModuleID moduleId, ULONG32 cAppDomainIds,
                                             ULONG32 *pcAppDomainIds, AppDomainID appDomainIds[]);
    HRESULT (*GetModuleInfo2)(void *self, ModuleID moduleId, LPCBYTE *ppBaseLoadAddress, ULONG cchName,
                              ULONG *pcchName, WCHAR szName[], AssemblyID *pAssemblyId, DWORD *pdwModuleFlags);

    // ICorProfilerInfo4 (from slot 71)
    HRESULT (*EnumThreads)(void *self, void **ppEnum);
    HRESULT (*InitializeCurrentThread)(void *self);
    HRESULT (*RequestReJIT)(void *self, ULONG cFunctions, ModuleID moduleIds[], mdMethodDef methodIds[]);
    HRESULT (*RequestRevert)(void *self, ULONG cFunctions, ModuleID moduleIds[], mdMethodDef methodIds[],
                             HRESULT status[]);
    HRESULT (*GetCodeInfo3)(void *self, FunctionID functionID, ReJITID reJitId, ULONG32 cCodeInfos,
                            ULONG32 *pcCodeInfos, COR_PRF_CODE_INFO codeInfos[]);
    HRESULT (*GetFunctionFromIP2)(void *self, LPCBYTE ip, FunctionID *pFunctionId, ReJITID *pReJitId);
    HRESULT (*GetReJITIDs)(void *self, FunctionID functionId, ULONG cReJitIds, ULONG *pcReJitIds, ReJITID reJitIds[]);
    HRESULT (*GetILToNativeMapping2)(void *self, FunctionID functionId, ReJITID reJitId, ULONG32 cMap, ULONG32 *pcMap,
                                     COR_DEBUG_IL_TO_NATIVE_MAP map[]);
    HRESULT (*EnumJITedFunctions2)(void *self, void **ppEnum);
    HRESULT (*GetObjectSize2)(void *self, ObjectID objectId, SIZE_T *pcSize);

    // ICorProfilerInfo5 (from slot 81)
    HRESULT (*GetEventMask2)(void *self, DWORD *pdwEventsLow, DWORD *pdwEventsHigh);
    HRESULT (*SetEventMask2)(void *self, DWORD dwEventsLow, DWORD dwEventsHigh);

    // ICorProfilerInfo6 (from slot 83)
    HRESULT (*EnumNgenModuleMethodsInliningThisMethod)(void *self, ModuleID inlinersModuleId,
                                                       ModuleID inlineeModuleId, mdMethodDef inlineeMethodId,
                                                       BOOL *incompleteData, void **ppEnum);

    // ICorProfilerInfo7 (from slot 84)
    HRESULT (*ApplyMetaData)(void *self, ModuleID moduleId);
    HRESULT (*GetInMemorySymbolsLength)(void *self, ModuleID moduleId, DWORD *pCountSymbolBytes);
    HRESULT (*ReadInMemorySymbols)(void *self, ModuleID moduleId, DWORD symbolsReadOffset, BYTE *pSymbolBytes,
                                   DWORD countSymbolBytes, DWORD *pCountSymbolBytesRead);

    // ICorProfilerInfo8 (from slot 87)
    HRESULT (*IsFunctionDynamic)(void *self, FunctionID functionId, BOOL *isDynamic);
    HRESULT (*GetFunctionFromIP3)(void *self, LPCBYTE ip, FunctionID *functionId, ReJITID *pReJitId);
    HRESULT (*GetDynamicFunctionInfo)(void *self, FunctionID functionId, ModuleID *moduleId, PCCOR_SIGNATURE *ppvSig,
                                      ULONG *pbSig, ULONG cchName, ULONG *pcchName, WCHAR wszName[]);

    // ICorProfilerInfo9 (from slot 90)
    HRESULT (*GetNativeCodeStartAddresses)(void *self, FunctionID functionID, ReJITID reJitId,
                                           ULONG32 cCodeStartAddresses, ULONG32 *pcCodeStartAddresses,
                                           UINT_PTR codeStartAddresses[]);
    HRESULT (*GetILToNativeMapping3)(void *self, UINT_PTR pNativeCodeStartAddress, ULONG32 cMap, ULONG32 *pcMap,
                                     COR_DEBUG_IL_TO_NATIVE_MAP map[]);
    HRESULT (*GetCodeInfo4)(void *self, UINT_PTR pNativeCodeStartAddress, ULONG32 cCodeInfos, ULONG32 *pcCodeInfos,
                            COR_PRF_CODE_INFO codeInfos[]);

    // ICorProfilerInfo10 (from slot 93)
    HRESULT (*EnumerateObjectReferences)(void *self, ObjectID objectId, ObjectReferenceCallback callback,
                                         void *clientData);
    HRESULT (*IsFrozenObject)(void *self, ObjectID objectId, BOOL *pbFrozen);
    HRESULT (*GetLOHObjectSizeThreshold)(void *self, DWORD *pThreshold);
    HRESULT (*RequestReJITWithInliners)(void *self, DWORD dwRejitFlags, ULONG cFunctions, ModuleID moduleIds[],
                                        mdMethodDef methodIds[]);
    HRESULT (*SuspendRuntime)(void *self);
    HRESULT (*ResumeRuntime)(void *self);

    // ICorProfilerInfo11 (from slot 99)
    HRESULT (*GetEnvironmentVariable)(void *self, const WCHAR *szName, ULONG cchValue, ULONG *pcchValue,
                                      WCHAR szValue[]);
    HRESULT (*SetEnvironmentVariable)(void *self, const WCHAR *szName, const WCHAR *szValue);

    // ICorProfilerInfo12 (from slot 101)
    HRESULT (*EventPipeStartSession)(void *self, uint32_t cProviderConfigs,
                                     COR_PRF_EVENTPIPE_PROVIDER_CONFIG pProviderConfigs[], BOOL requestRundown,
                                     EVENTPIPE_SESSION *pSession);
    HRESULT (*EventPipeAddProviderToSession)(void *self, EVENTPIPE_SESSION session,
                                             COR_PRF_EVENTPIPE_PROVIDER_CONFIG providerConfig); // struct by value
    HRESULT (*EventPipeStopSession)(void *self, EVENTPIPE_SESSION session);
    HRESULT (*EventPipeCreateProvider)(void *self, const WCHAR *providerName, EVENTPIPE_PROVIDER *pProvider);
    HRESULT (*EventPipeGetProviderInfo)(void *self, EVENTPIPE_PROVIDER provider, ULONG cchName, ULONG *pcchName,
                                        WCHAR providerName[]);
    HRESULT (*EventPipeDefineEvent)(void *self, EVENTPIPE_PROVIDER provider, const WCHAR *eventName, uint32_t eventID,
                                    uint64_t keywords, uint32_t eventVersion, uint32_t level, uint8_t opcode,
                                    BOOL needStack, uint32_t cParamDescs, COR_PRF_EVENTPIPE_PARAM_DESC pParamDescs[],
                                    EVENTPIPE_EVENT *pEvent);
    HRESULT (*EventPipeWriteEvent)(void *self, EVENTPIPE_EVENT event, uint32_t cData, COR_PRF_EVENT_DATA data[],
                                   LPCGUID pActivityId, LPCGUID pRelatedActivityId);
} ProfInfoVtbl;

// ---- IMetaDataImport then IMetaDataImport2 as one flat vtable ----
// Name buffers are WCHAR arrays whose capacity is given in characters.
typedef struct MDImportVtbl {
    // IUnknown (slots 0-2)
    HRESULT (*QueryInterface)(void *self, REFIID riid, void **ppv);
    ULONG (*AddRef)(void *self);
    ULONG (*Release)(void *self);

    // IMetaDataImport (from slot 3)
    void (*CloseEnum)(void *self, HCORENUM hEnum);
    HRESULT (*CountEnum)(void *self, HCORENUM hEnum, ULONG *pulCount);
    HRESULT (*ResetEnum)(void *self, HCORENUM hEnum, ULONG ulPos);
    HRESULT (*EnumTypeDefs)(void *self, HCORENUM *phEnum, mdTypeDef rTypeDefs[], ULONG cMax, ULONG *pcTypeDefs);
    HRESULT (*EnumInterfaceImpls)(void *self, HCORENUM *phEnum, mdTypeDef td, mdInterfaceImpl rImpls[], ULONG cMax,
                                  ULONG *pcImpls);
    HRESULT (*EnumTypeRefs)(void *self, HCORENUM *phEnum, mdTypeRef rTypeRefs[], ULONG cMax, ULONG *pcTypeRefs);
    HRESULT (*FindTypeDefByName)(void *self, const WCHAR *szTypeDef, mdToken tkEnclosingClass, mdTypeDef *ptd);
    HRESULT (*GetScopeProps)(void *self, WCHAR *szName, ULONG cchName, ULONG *pchName, GUID *pmvid);
    HRESULT (*GetModuleFromScope)(void *self, mdModule *pmd);
    HRESULT (*GetTypeDefProps)(void *self, mdTypeDef td, WCHAR *szTypeDef, ULONG cchTypeDef, ULONG *pchTypeDef,
                               DWORD *pdwTypeDefFlags, mdToken *ptkExtends);
    HRESULT (*GetInterfaceImplProps)(void *self, mdInterfaceImpl iiImpl, mdTypeDef *pClass, mdToken *ptkIface);
    HRESULT (*GetTypeRefProps)(void *self, mdTypeRef tr, mdToken *ptkResolutionScope, WCHAR *szName, ULONG cchName,
                               ULONG *pchName);
    HRESULT (*ResolveTypeRef)(void *self, mdTypeRef tr, REFIID riid, void **ppIScope, mdTypeDef *ptd);
    HRESULT (*EnumMembers)(void *self, HCORENUM *phEnum, mdTypeDef cl, mdToken rMembers[], ULONG cMax,
                           ULONG *pcTokens);
    HRESULT (*EnumMembersWithName)(void *self, HCORENUM *phEnum, mdTypeDef cl, const WCHAR *szName,
                                   mdToken rMembers[], ULONG cMax, ULONG *pcTokens);
    HRESULT (*EnumMethods)(void *self, HCORENUM *phEnum, mdTypeDef cl, mdMethodDef rMethods[], ULONG cMax,
                           ULONG *pcTokens);
    HRESULT (*EnumMethodsWithName)(void *self, HCORENUM *phEnum, mdTypeDef cl, const WCHAR *szName,
                                   mdMethodDef rMethods[], ULONG cMax, ULONG *pcTokens);
    HRESULT (*EnumFields)(void *self, HCORENUM *phEnum, mdTypeDef cl, mdFieldDef rFields[], ULONG cMax,
                          ULONG *pcTokens);
    HRESULT (*EnumFieldsWithName)(void *self, HCORENUM *phEnum, mdTypeDef cl, const WCHAR *szName,
                                  mdFieldDef rFields[], ULONG cMax, ULONG *pcTokens);
    HRESULT (*EnumParams)(void *self, HCORENUM *phEnum, mdMethodDef mb, mdParamDef rParams[], ULONG cMax,
                          ULONG *pcTokens);
    HRESULT (*EnumMemberRefs)(void *self, HCORENUM *phEnum, mdToken tkParent, mdMemberRef rMemberRefs[], ULONG cMax,
                              ULONG *pcTokens);
    HRESULT (*EnumMethodImpls)(void *self, HCORENUM *phEnum, mdTypeDef td, mdToken rMethodBody[],
                               mdToken rMethodDecl[], ULONG cMax, ULONG *pcTokens);
    HRESULT (*EnumPermissionSets)(void *self, HCORENUM *phEnum, mdToken tk, DWORD dwActions,
                                  mdPermission rPermission[], ULONG cMax, ULONG *pcTokens);
    HRESULT (*FindMember)(void *self, mdTypeDef td, const WCHAR *szName, PCCOR_SIGNATURE pvSigBlob, ULONG cbSigBlob,
                          mdToken *pmb);
    HRESULT (*FindMethod)(void *self, mdTypeDef td, const WCHAR *szName, PCCOR_SIGNATURE pvSigBlob, ULONG cbSigBlob,
                          mdMethodDef *pmb);
    HRESULT (*FindField)(void *self, mdTypeDef td, const WCHAR *szName, PCCOR_SIGNATURE pvSigBlob, ULONG cbSigBlob,
                         mdFieldDef *pmb);
    HRESULT (*FindMemberRef)(void *self, mdTypeRef td, const WCHAR *szName, PCCOR_SIGNATURE pvSigBlob,
                             ULONG cbSigBlob, mdMemberRef *pmr);
    HRESULT (*GetMethodProps)(void *self, mdMethodDef mb, mdTypeDef *pClass, WCHAR *szMethod, ULONG cchMethod,
                              ULONG *pchMethod, DWORD *pdwAttr, PCCOR_SIGNATURE *ppvSigBlob, ULONG *pcbSigBlob,
                              ULONG *pulCodeRVA, DWORD *pdwImplFlags);
    HRESULT (*GetMemberRefProps)(void *self, mdMemberRef mr, mdToken *ptk, WCHAR *szMember, ULONG cchMember,
                                 ULONG *pchMember, PCCOR_SIGNATURE *ppvSigBlob, ULONG *pbSig);
    HRESULT (*EnumProperties)(void *self, HCORENUM *phEnum, mdTypeDef td, mdProperty rProperties[], ULONG cMax,
                              ULONG *pcProperties);
    HRESULT (*EnumEvents)(void *self, HCORENUM *phEnum, mdTypeDef td, mdEvent rEvents[], ULONG cMax,
                          ULONG *pcEvents);
    HRESULT (*GetEventProps)(void *self, mdEvent ev, mdTypeDef *pClass, WCHAR *szEvent, ULONG cchEvent,
                             ULONG *pchEvent, DWORD *pdwEventFlags, mdToken *ptkEventType, mdMethodDef *pmdAddOn,
                             mdMethodDef *pmdRemoveOn, mdMethodDef *pmdFire, mdMethodDef rmdOtherMethod[],
                             ULONG cMax, ULONG *pcOtherMethod);
    HRESULT (*EnumMethodSemantics)(void *self, HCORENUM *phEnum, mdMethodDef mb, mdToken rEventProp[], ULONG cMax,
                                   ULONG *pcEventProp);
    HRESULT (*GetMethodSemantics)(void *self, mdMethodDef mb, mdToken tkEventProp, DWORD *pdwSemanticsFlags);
    HRESULT (*GetClassLayout)(void *self, mdTypeDef td, DWORD *pdwPackSize, COR_FIELD_OFFSET rFieldOffset[],
                              ULONG cMax, ULONG *pcFieldOffset, ULONG *pulClassSize);
    HRESULT (*GetFieldMarshal)(void *self, mdToken tk, PCCOR_SIGNATURE *ppvNativeType, ULONG *pcbNativeType);
    HRESULT (*GetRVA)(void *self, mdToken tk, ULONG *pulCodeRVA, DWORD *pdwImplFlags);
    HRESULT (*GetPermissionSetProps)(void *self, mdPermission pm, DWORD *pdwAction, const void **ppvPermission,
                                     ULONG *pcbPermission);
    HRESULT (*GetSigFromToken)(void *self, mdSignature mdSig, PCCOR_SIGNATURE *ppvSig, ULONG *pcbSig);
    HRESULT (*GetModuleRefProps)(void *self, mdModuleRef mur, WCHAR *szName, ULONG cchName, ULONG *pchName);
    HRESULT (*EnumModuleRefs)(void *self, HCORENUM *phEnum, mdModuleRef rModuleRefs[], ULONG cmax,
                              ULONG *pcModuleRefs);
    HRESULT (*GetTypeSpecFromToken)(void *self, mdTypeSpec typespec, PCCOR_SIGNATURE *ppvSig, ULONG *pcbSig);
    HRESULT (*GetNameFromToken)(void *self, mdToken tk, MDUTF8CSTR *pszUtf8NamePtr);
    HRESULT (*EnumUnresolvedMethods)(void *self, HCORENUM *phEnum, mdToken rMethods[], ULONG cMax, ULONG *pcTokens);
    HRESULT (*GetUserString)(void *self, mdString stk, WCHAR *szString, ULONG cchString, ULONG *pchString);
    HRESULT (*GetPinvokeMap)(void *self, mdToken tk, DWORD *pdwMappingFlags, WCHAR *szImportName,
                             ULONG cchImportName, ULONG *pchImportName, mdModuleRef *pmrImportDLL);
    HRESULT (*EnumSignatures)(void *self, HCORENUM *phEnum, mdSignature rSignatures[], ULONG cmax,
                              ULONG *pcSignatures);
    HRESULT (*EnumTypeSpecs)(void *self, HCORENUM *phEnum, mdTypeSpec rTypeSpecs[], ULONG cmax, ULONG *pcTypeSpecs);
    HRESULT (*EnumUserStrings)(void *self, HCORENUM *phEnum, mdString rStrings[], ULONG cmax, ULONG *pcStrings);
    HRESULT (*GetParamForMethodIndex)(void *self, mdMethodDef md, ULONG ulParamSeq, mdParamDef *ppd);
    HRESULT (*EnumCustomAttributes)(void *self, HCORENUM *phEnum, mdToken tk, mdToken tkType,
                                    mdCustomAttribute rCustomAttributes[], ULONG cMax, ULONG *pcCustomAttributes);
    HRESULT (*GetCustomAttributeProps)(void *self, mdCustomAttribute cv, mdToken *ptkObj, mdToken *ptkType,
                                       const void **ppBlob, ULONG *pcbSize);
    HRESULT (*FindTypeRef)(void *self, mdToken tkResolutionScope, const WCHAR *szName, mdTypeRef *ptr);
    HRESULT (*GetMemberProps)(void *self, mdToken mb, mdTypeDef *pClass, WCHAR *szMember, ULONG cchMember,
                              ULONG *pchMember, DWORD *pdwAttr, PCCOR_SIGNATURE *ppvSigBlob, ULONG *pcbSigBlob,
                              ULONG *pulCodeRVA, DWORD *pdwImplFlags, DWORD *pdwCPlusTypeFlag, UVCP_CONSTANT *ppValue,
                              ULONG *pcchValue);
    HRESULT (*GetFieldProps)(void *self, mdFieldDef mb, mdTypeDef *pClass, WCHAR *szField, ULONG cchField,
                             ULONG *pchField, DWORD *pdwAttr, PCCOR_SIGNATURE *ppvSigBlob, ULONG *pcbSigBlob,
                             DWORD *pdwCPlusTypeFlag, UVCP_CONSTANT *ppValue, ULONG *pcchValue);
    HRESULT (*GetPropertyProps)(void *self, mdProperty prop, mdTypeDef *pClass, WCHAR *szProperty, ULONG cchProperty,
                                ULONG *pchProperty, DWORD *pdwPropFlags, PCCOR_SIGNATURE *ppvSig, ULONG *pbSig,
                                DWORD *pdwCPlusTypeFlag, UVCP_CONSTANT *ppDefaultValue, ULONG *pcchDefaultValue,
                                mdMethodDef *pmdSetter, mdMethodDef *pmdGetter, mdMethodDef rmdOtherMethod[],
                                ULONG cMax, ULONG *pcOtherMethod);
    HRESULT (*GetParamProps)(void *self, mdParamDef tk, mdMethodDef *pmd, ULONG *pulSequence, WCHAR *szName,
                             ULONG cchName, ULONG *pchName, DWORD *pdwAttr, DWORD *pdwCPlusTypeFlag,
                             UVCP_CONSTANT *ppValue, ULONG *pcchValue);
    HRESULT (*GetCustomAttributeByName)(void *self, mdToken tkObj, const WCHAR *szName, const void **ppData,
                                        ULONG *pcbData);
    BOOL (*IsValidToken)(void *self, mdToken tk);
    HRESULT (*GetNestedClassProps)(void *self, mdTypeDef tdNestedClass, mdTypeDef *ptdEnclosingClass);
    HRESULT (*GetNativeCallConvFromSig)(void *self, const void *pvSig, ULONG cbSig, ULONG *pCallConv);
    HRESULT (*IsGlobal)(void *self, mdToken pd, int *pbGlobal);

    // IMetaDataImport2 (from slot 65)
    HRESULT (*EnumGenericParams)(void *self, HCORENUM *phEnum, mdToken tk, mdGenericParam rGenericParams[],
                                 ULONG cMax, ULONG *pcGenericParams);
    HRESULT (*GetGenericParamProps)(void *self, mdGenericParam gp, ULONG *pulParamSeq, DWORD *pdwParamFlags,
                                    mdToken *ptOwner, DWORD *reserved, WCHAR *wzname, ULONG cchName, ULONG *pchName);
    HRESULT (*GetMethodSpecProps)(void *self, mdMethodSpec mi, mdToken *tkParent, PCCOR_SIGNATURE *ppvSigBlob,
                                  ULONG *pcbSigBlob);
    HRESULT (*EnumGenericParamConstraints)(void *self, HCORENUM *phEnum, mdGenericParam tk,
                                           mdGenericParamConstraint rGenericParamConstraints[], ULONG cMax,
                                           ULONG *pcGenericParamConstraints);
    HRESULT (*GetGenericParamConstraintProps)(void *self, mdGenericParamConstraint gpc, mdGenericParam *ptGenericParam,
                                              mdToken *ptkConstraintType);
    HRESULT (*GetPEKind)(void *self, DWORD *pdwPEKind, DWORD *pdwMachine);
    HRESULT (*GetVersionString)(void *self, WCHAR *pwzBuf, DWORD ccBufSize, DWORD *pccBufSize);
    HRESULT (*EnumMethodSpecs)(void *self, HCORENUM *phEnum, mdToken tk, mdMethodSpec rMethodSpecs[], ULONG cMax,
                               ULONG *pcMethodSpecs);
} MDImportVtbl;

// ---- COR_PRF_MONITOR: SetEventMask / low word of SetEventMask2 ----
enum {
    COR_PRF_MONITOR_NONE = 0x00000000,
    COR_PRF_MONITOR_FUNCTION_UNLOADS = 0x00000001,
    COR_PRF_MONITOR_CLASS_LOADS = 0x00000002,
    COR_PRF_MONITOR_MODULE_LOADS = 0x00000004,
    COR_PRF_MONITOR_ASSEMBLY_LOADS = 0x00000008,
    COR_PRF_MONITOR_APPDOMAIN_LOADS = 0x00000010,
    COR_PRF_MONITOR_JIT_COMPILATION = 0x00000020,
    COR_PRF_MONITOR_EXCEPTIONS = 0x00000040,
    COR_PRF_MONITOR_GC = 0x00000080,
    COR_PRF_MONITOR_OBJECT_ALLOCATED = 0x00000100,
    COR_PRF_MONITOR_THREADS = 0x00000200,
    COR_PRF_MONITOR_REMOTING = 0x00000400, // no effect on CoreCLR
    COR_PRF_MONITOR_CODE_TRANSITIONS = 0x00000800,
    COR_PRF_MONITOR_ENTERLEAVE = 0x00001000,
    COR_PRF_MONITOR_CCW = 0x00002000,
    COR_PRF_MONITOR_REMOTING_COOKIE = 0x00004000 | COR_PRF_MONITOR_REMOTING,
    COR_PRF_MONITOR_REMOTING_ASYNC = 0x00008000 | COR_PRF_MONITOR_REMOTING,
    COR_PRF_MONITOR_SUSPENDS = 0x00010000,
    COR_PRF_MONITOR_CACHE_SEARCHES = 0x00020000,
    COR_PRF_ENABLE_REJIT = 0x00040000,
    COR_PRF_ENABLE_INPROC_DEBUGGING = 0x00080000, // deprecated, ignored
    COR_PRF_ENABLE_JIT_MAPS = 0x00100000,         // deprecated, always on
    COR_PRF_DISABLE_INLINING = 0x00200000,
    COR_PRF_DISABLE_OPTIMIZATIONS = 0x00400000,
    COR_PRF_ENABLE_OBJECT_ALLOCATED = 0x00800000,
    COR_PRF_MONITOR_CLR_EXCEPTIONS = 0x01000000,
    COR_PRF_MONITOR_ALL = 0x0107FFFF,
    COR_PRF_ENABLE_FUNCTION_ARGS = 0x02000000,   // argument ranges in GetFunctionEnter3Info
    COR_PRF_ENABLE_FUNCTION_RETVAL = 0x04000000, // return range in GetFunctionLeave3Info
    COR_PRF_ENABLE_FRAME_INFO = 0x08000000,      // exact generic context in the frame info
    COR_PRF_ENABLE_STACK_SNAPSHOT = 0x10000000,
    COR_PRF_USE_PROFILE_IMAGES = 0x20000000,
    COR_PRF_DISABLE_TRANSPARENCY_CHECKS_UNDER_FULL_TRUST = 0x40000000,
    COR_PRF_REQUIRE_PROFILE_IMAGE =
        COR_PRF_USE_PROFILE_IMAGES | COR_PRF_MONITOR_CODE_TRANSITIONS | COR_PRF_MONITOR_ENTERLEAVE,
    COR_PRF_ALLOWABLE_AFTER_ATTACH = COR_PRF_MONITOR_THREADS | COR_PRF_MONITOR_MODULE_LOADS |
                                     COR_PRF_MONITOR_ASSEMBLY_LOADS | COR_PRF_MONITOR_APPDOMAIN_LOADS |
                                     COR_PRF_ENABLE_STACK_SNAPSHOT | COR_PRF_MONITOR_GC | COR_PRF_MONITOR_SUSPENDS |
                                     COR_PRF_MONITOR_CLASS_LOADS | COR_PRF_MONITOR_EXCEPTIONS |
                                     COR_PRF_MONITOR_JIT_COMPILATION | COR_PRF_DISABLE_INLINING |
                                     COR_PRF_DISABLE_OPTIMIZATIONS | COR_PRF_ENABLE_REJIT,
};
// Members with bit 31 set do not fit an int enum constant.
#define COR_PRF_DISABLE_ALL_NGEN_IMAGES 0x80000000u
#define COR_PRF_ALL 0x8FFFFFFFu
#define COR_PRF_ALLOWABLE_NOTIFICATION_PROFILER                                                                       \
    ((uint32_t)(COR_PRF_MONITOR_FUNCTION_UNLOADS | COR_PRF_MONITOR_CLASS_LOADS | COR_PRF_MONITOR_MODULE_LOADS |     \
                COR_PRF_MONITOR_ASSEMBLY_LOADS | COR_PRF_MONITOR_APPDOMAIN_LOADS | COR_PRF_MONITOR_JIT_COMPILATION |  \
                COR_PRF_MONITOR_EXCEPTIONS | COR_PRF_MONITOR_OBJECT_ALLOCATED | COR_PRF_MONITOR_THREADS |            \
                COR_PRF_MONITOR_CODE_TRANSITIONS | COR_PRF_MONITOR_CCW | COR_PRF_MONITOR_SUSPENDS |                  \
                COR_PRF_MONITOR_CACHE_SEARCHES | COR_PRF_DISABLE_INLINING | COR_PRF_DISABLE_OPTIMIZATIONS |          \
                COR_PRF_ENABLE_OBJECT_ALLOCATED | COR_PRF_MONITOR_CLR_EXCEPTIONS | COR_PRF_ENABLE_STACK_SNAPSHOT |   \
                COR_PRF_USE_PROFILE_IMAGES) |                                                                        \
     COR_PRF_DISABLE_ALL_NGEN_IMAGES)
#define COR_PRF_MONITOR_IMMUTABLE                                                                                     \
    ((uint32_t)(COR_PRF_MONITOR_CODE_TRANSITIONS | COR_PRF_MONITOR_REMOTING | COR_PRF_MONITOR_REMOTING_COOKIE |     \
                COR_PRF_MONITOR_REMOTING_ASYNC | COR_PRF_ENABLE_INPROC_DEBUGGING | COR_PRF_ENABLE_JIT_MAPS |         \
                COR_PRF_ENABLE_OBJECT_ALLOCATED | COR_PRF_ENABLE_FUNCTION_ARGS | COR_PRF_ENABLE_FUNCTION_RETVAL |    \
                COR_PRF_ENABLE_FRAME_INFO | COR_PRF_USE_PROFILE_IMAGES |                                            \
                COR_PRF_DISABLE_TRANSPARENCY_CHECKS_UNDER_FULL_TRUST) |                                              \
     COR_PRF_DISABLE_ALL_NGEN_IMAGES)

// ---- COR_PRF_HIGH_MONITOR: high word of SetEventMask2 ----
enum {
    COR_PRF_HIGH_MONITOR_NONE = 0x00000000,
    COR_PRF_HIGH_ADD_ASSEMBLY_REFERENCES = 0x00000001, // not checked by CoreCLR
    COR_PRF_HIGH_IN_MEMORY_SYMBOLS_UPDATED = 0x00000002,
    COR_PRF_HIGH_MONITOR_DYNAMIC_FUNCTION_UNLOADS = 0x00000004,
    COR_PRF_HIGH_DISABLE_TIERED_COMPILATION = 0x00000008,
    COR_PRF_HIGH_BASIC_GC = 0x00000010,
    COR_PRF_HIGH_MONITOR_GC_MOVED_OBJECTS = 0x00000020,
    COR_PRF_HIGH_REQUIRE_PROFILE_IMAGE = 0,
    COR_PRF_HIGH_MONITOR_LARGEOBJECT_ALLOCATED = 0x00000040,
    COR_PRF_HIGH_MONITOR_EVENT_PIPE = 0x00000080,
    COR_PRF_HIGH_MONITOR_PINNEDOBJECT_ALLOCATED = 0x00000100,
    COR_PRF_HIGH_ALLOWABLE_AFTER_ATTACH =
        COR_PRF_HIGH_IN_MEMORY_SYMBOLS_UPDATED | COR_PRF_HIGH_MONITOR_DYNAMIC_FUNCTION_UNLOADS |
        COR_PRF_HIGH_BASIC_GC | COR_PRF_HIGH_MONITOR_GC_MOVED_OBJECTS |
        COR_PRF_HIGH_MONITOR_LARGEOBJECT_ALLOCATED | COR_PRF_HIGH_MONITOR_EVENT_PIPE,
    COR_PRF_HIGH_ALLOWABLE_NOTIFICATION_PROFILER =
        COR_PRF_HIGH_IN_MEMORY_SYMBOLS_UPDATED | COR_PRF_HIGH_MONITOR_DYNAMIC_FUNCTION_UNLOADS |
        COR_PRF_HIGH_DISABLE_TIERED_COMPILATION | COR_PRF_HIGH_BASIC_GC | COR_PRF_HIGH_MONITOR_GC_MOVED_OBJECTS |
        COR_PRF_HIGH_MONITOR_LARGEOBJECT_ALLOCATED | COR_PRF_HIGH_MONITOR_EVENT_PIPE,
    COR_PRF_HIGH_MONITOR_IMMUTABLE = COR_PRF_HIGH_DISABLE_TIERED_COMPILATION,
};

// ---- small profiling enums ----
enum { COR_PRF_SNAPSHOT_DEFAULT = 0x0, COR_PRF_SNAPSHOT_REGISTER_CONTEXT = 0x1, COR_PRF_SNAPSHOT_X86_OPTIMIZED = 0x2 };
enum { // COR_PRF_STATIC_TYPE (bit set)
    COR_PRF_FIELD_NOT_A_STATIC = 0x0,
    COR_PRF_FIELD_APP_DOMAIN_STATIC = 0x1,
    COR_PRF_FIELD_THREAD_STATIC = 0x2,
    COR_PRF_FIELD_CONTEXT_STATIC = 0x4,
    COR_PRF_FIELD_RVA_STATIC = 0x8,
};
enum { COR_PRF_CACHED_FUNCTION_FOUND = 0, COR_PRF_CACHED_FUNCTION_NOT_FOUND = 1 }; // COR_PRF_JIT_CACHE
enum { COR_PRF_TRANSITION_CALL = 0, COR_PRF_TRANSITION_RETURN = 1 };               // COR_PRF_TRANSITION_REASON
enum { // COR_PRF_SUSPEND_REASON
    COR_PRF_SUSPEND_OTHER = 0,
    COR_PRF_SUSPEND_FOR_GC = 1,
    COR_PRF_SUSPEND_FOR_APPDOMAIN_SHUTDOWN = 2,
    COR_PRF_SUSPEND_FOR_CODE_PITCHING = 3,
    COR_PRF_SUSPEND_FOR_SHUTDOWN = 4,
    COR_PRF_SUSPEND_FOR_INPROC_DEBUGGER = 6,
    COR_PRF_SUSPEND_FOR_GC_PREP = 7,
    COR_PRF_SUSPEND_FOR_REJIT = 8,
    COR_PRF_SUSPEND_FOR_PROFILER = 9,
};
enum { COR_PRF_DESKTOP_CLR = 0x1, COR_PRF_CORE_CLR = 0x2 }; // COR_PRF_RUNTIME_TYPE
enum { // COR_PRF_CLAUSE_TYPE
    COR_PRF_CLAUSE_NONE = 0,
    COR_PRF_CLAUSE_FILTER = 1,
    COR_PRF_CLAUSE_CATCH = 2,
    COR_PRF_CLAUSE_FINALLY = 3,
};
enum { // COR_PRF_GC_GENERATION
    COR_PRF_GC_GEN_0 = 0,
    COR_PRF_GC_GEN_1 = 1,
    COR_PRF_GC_GEN_2 = 2,
    COR_PRF_GC_LARGE_OBJECT_HEAP = 3,
    COR_PRF_GC_PINNED_OBJECT_HEAP = 4,
};
enum { // COR_PRF_MODULE_FLAGS (GetModuleInfo2)
    COR_PRF_MODULE_DISK = 0x01,
    COR_PRF_MODULE_NGEN = 0x02,
    COR_PRF_MODULE_DYNAMIC = 0x04,
    COR_PRF_MODULE_COLLECTIBLE = 0x08,
    COR_PRF_MODULE_RESOURCE = 0x10,
    COR_PRF_MODULE_FLAT_LAYOUT = 0x20,
    COR_PRF_MODULE_WINDOWS_RUNTIME = 0x40,
};

// ---- CorElementType: signature element bytes ----
enum {
    ELEMENT_TYPE_END = 0x00,
    ELEMENT_TYPE_VOID = 0x01,
    ELEMENT_TYPE_BOOLEAN = 0x02,
    ELEMENT_TYPE_CHAR = 0x03,
    ELEMENT_TYPE_I1 = 0x04,
    ELEMENT_TYPE_U1 = 0x05,
    ELEMENT_TYPE_I2 = 0x06,
    ELEMENT_TYPE_U2 = 0x07,
    ELEMENT_TYPE_I4 = 0x08,
    ELEMENT_TYPE_U4 = 0x09,
    ELEMENT_TYPE_I8 = 0x0a,
    ELEMENT_TYPE_U8 = 0x0b,
    ELEMENT_TYPE_R4 = 0x0c,
    ELEMENT_TYPE_R8 = 0x0d,
    ELEMENT_TYPE_STRING = 0x0e,
    ELEMENT_TYPE_PTR = 0x0f,         // PTR type
    ELEMENT_TYPE_BYREF = 0x10,       // BYREF type
    ELEMENT_TYPE_VALUETYPE = 0x11,   // VALUETYPE TypeDefOrRef
    ELEMENT_TYPE_CLASS = 0x12,       // CLASS TypeDefOrRef
    ELEMENT_TYPE_VAR = 0x13,         // VAR index (type's generic parameter)
    ELEMENT_TYPE_ARRAY = 0x14,       // ARRAY type rank nsizes sizes... nlobounds lobounds...
    ELEMENT_TYPE_GENERICINST = 0x15, // GENERICINST type argc args...
    ELEMENT_TYPE_TYPEDBYREF = 0x16,
    ELEMENT_TYPE_I = 0x18,
    ELEMENT_TYPE_U = 0x19,
    ELEMENT_TYPE_FNPTR = 0x1b, // FNPTR method-signature
    ELEMENT_TYPE_OBJECT = 0x1c,
    ELEMENT_TYPE_SZARRAY = 0x1d,   // SZARRAY type (1-D, zero-based)
    ELEMENT_TYPE_MVAR = 0x1e,      // MVAR index (method's generic parameter)
    ELEMENT_TYPE_CMOD_REQD = 0x1f, // CMOD_REQD TypeDefOrRef, then the modified type
    ELEMENT_TYPE_CMOD_OPT = 0x20,  // CMOD_OPT TypeDefOrRef, then the modified type
    ELEMENT_TYPE_INTERNAL = 0x21,  // runtime-internal: pointer-sized type handle follows
    ELEMENT_TYPE_MAX = 0x22,       // first invalid base type
    ELEMENT_TYPE_MODIFIER = 0x40,
    ELEMENT_TYPE_SENTINEL = 0x41, // start of vararg extras
    ELEMENT_TYPE_PINNED = 0x45,   // local variable signatures only
};

// ---- metadata tokens: table in the top byte ----
enum {
    mdTokenNil = 0,
    mdtModule = 0x00000000,
    mdtTypeRef = 0x01000000,
    mdtTypeDef = 0x02000000,
    mdtFieldDef = 0x04000000,
    mdtMethodDef = 0x06000000,
    mdtParamDef = 0x08000000,
    mdtInterfaceImpl = 0x09000000,
    mdtMemberRef = 0x0a000000,
    mdtCustomAttribute = 0x0c000000,
    mdtPermission = 0x0e000000,
    mdtSignature = 0x11000000,
    mdtEvent = 0x14000000,
    mdtProperty = 0x17000000,
    mdtMethodImpl = 0x19000000,
    mdtModuleRef = 0x1a000000,
    mdtTypeSpec = 0x1b000000,
    mdtAssembly = 0x20000000,
    mdtAssemblyRef = 0x23000000,
    mdtFile = 0x26000000,
    mdtExportedType = 0x27000000,
    mdtManifestResource = 0x28000000,
    mdtNestedClass = 0x29000000,
    mdtGenericParam = 0x2a000000,
    mdtMethodSpec = 0x2b000000,
    mdtGenericParamConstraint = 0x2c000000,
    mdtString = 0x70000000,
    mdtName = 0x71000000,
    mdtBaseType = 0x72000000,
};

// ---- first byte of a signature: calling convention ----
enum {
    IMAGE_CEE_CS_CALLCONV_DEFAULT = 0x0,
    IMAGE_CEE_CS_CALLCONV_C = 0x1,
    IMAGE_CEE_CS_CALLCONV_STDCALL = 0x2,
    IMAGE_CEE_CS_CALLCONV_THISCALL = 0x3,
    IMAGE_CEE_CS_CALLCONV_FASTCALL = 0x4,
    IMAGE_CEE_CS_CALLCONV_VARARG = 0x5,
    IMAGE_CEE_CS_CALLCONV_FIELD = 0x6,
    IMAGE_CEE_CS_CALLCONV_LOCAL_SIG = 0x7,
    IMAGE_CEE_CS_CALLCONV_PROPERTY = 0x8,
    IMAGE_CEE_CS_CALLCONV_UNMANAGED = 0x9,
    IMAGE_CEE_CS_CALLCONV_GENERICINST = 0xa, // method instantiation (MethodSpec blob)
    IMAGE_CEE_CS_CALLCONV_NATIVEVARARG = 0xb,
    IMAGE_CEE_CS_CALLCONV_MAX = 0xc,
    IMAGE_CEE_CS_CALLCONV_MASK = 0x0f,         // kind = low 4 bits
    IMAGE_CEE_CS_CALLCONV_GENERIC = 0x10,      // generic-parameter count follows
    IMAGE_CEE_CS_CALLCONV_HASTHIS = 0x20,      // instance method
    IMAGE_CEE_CS_CALLCONV_EXPLICITTHIS = 0x40, // 'this' is listed among the parameters
};

// ---- CorTypeAttr (TypeDef flags) ----
enum {
    tdVisibilityMask = 0x00000007,
    tdNotPublic = 0x00000000,
    tdPublic = 0x00000001,
    tdNestedPublic = 0x00000002,
    tdNestedPrivate = 0x00000003,
    tdNestedFamily = 0x00000004,
    tdNestedAssembly = 0x00000005,
    tdNestedFamANDAssem = 0x00000006,
    tdNestedFamORAssem = 0x00000007,
    tdLayoutMask = 0x00000018,
    tdAutoLayout = 0x00000000,
    tdSequentialLayout = 0x00000008,
    tdExplicitLayout = 0x00000010,
    tdClassSemanticsMask = 0x00000020,
    tdClass = 0x00000000,
    tdInterface = 0x00000020,
    tdAbstract = 0x00000080,
    tdSealed = 0x00000100,
    tdSpecialName = 0x00000400,
    tdImport = 0x00001000,
    tdSerializable = 0x00002000,
    tdWindowsRuntime = 0x00004000,
    tdStringFormatMask = 0x00030000,
    tdAnsiClass = 0x00000000,
    tdUnicodeClass = 0x00010000,
    tdAutoClass = 0x00020000,
    tdCustomFormatClass = 0x00030000,
    tdCustomFormatMask = 0x00C00000,
    tdBeforeFieldInit = 0x00100000,
    tdForwarder = 0x00200000,
    tdReservedMask = 0x00040800,
    tdRTSpecialName = 0x00000800,
    tdHasSecurity = 0x00040000,
};

// ---- CorMethodAttr (MethodDef flags) ----
enum {
    mdMemberAccessMask = 0x0007,
    mdPrivateScope = 0x0000,
    mdPrivate = 0x0001,
    mdFamANDAssem = 0x0002,
    mdAssem = 0x0003,
    mdFamily = 0x0004,
    mdFamORAssem = 0x0005,
    mdPublic = 0x0006,
    mdStatic = 0x0010,
    mdFinal = 0x0020,
    mdVirtual = 0x0040,
    mdHideBySig = 0x0080,
    mdVtableLayoutMask = 0x0100,
    mdReuseSlot = 0x0000,
    mdNewSlot = 0x0100,
    mdCheckAccessOnOverride = 0x0200,
    mdAbstract = 0x0400,
    mdSpecialName = 0x0800,
    mdPinvokeImpl = 0x2000,
    mdUnmanagedExport = 0x0008,
    mdReservedMask = 0xd000,
    mdRTSpecialName = 0x1000,
    mdHasSecurity = 0x4000,
    mdRequireSecObject = 0x8000,
};

// ---- CorFieldAttr (FieldDef flags) ----
enum {
    fdFieldAccessMask = 0x0007,
    fdPrivateScope = 0x0000,
    fdPrivate = 0x0001,
    fdFamANDAssem = 0x0002,
    fdAssembly = 0x0003,
    fdFamily = 0x0004,
    fdFamORAssem = 0x0005,
    fdPublic = 0x0006,
    fdStatic = 0x0010,
    fdInitOnly = 0x0020,
    fdLiteral = 0x0040, // constant: lives only in metadata, has no address
    fdNotSerialized = 0x0080,
    fdSpecialName = 0x0200,
    fdPinvokeImpl = 0x2000,
    fdReservedMask = 0x9500,
    fdRTSpecialName = 0x0400,
    fdHasFieldMarshal = 0x1000,
    fdHasDefault = 0x8000,
    fdHasFieldRVA = 0x0100, // static stored at an RVA in the image
};

// ---- CorParamAttr (ParamDef flags) ----
enum {
    pdIn = 0x0001,
    pdOut = 0x0002,
    pdOptional = 0x0010,
    pdReservedMask = 0xf000,
    pdHasDefault = 0x1000,
    pdHasFieldMarshal = 0x2000,
    pdUnused = 0xcfe0,
};

// ---- CorOpenFlags (GetModuleMetaData dwOpenFlags) ----
enum { ofRead = 0x00000000, ofWrite = 0x00000001 };

#endif
