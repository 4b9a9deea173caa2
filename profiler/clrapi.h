// clrapi.h: the subset of the CoreCLR profiling and metadata ABI that clrotel
// uses, for Linux x64 (LP64, SysV, 2-byte WCHAR). Vtable slot orders follow
// corprof.idl and cor.h of dotnet/runtime. Declarations only; no logic.
#ifndef CLROTEL_CLRAPI_H
#define CLROTEL_CLRAPI_H

#include <stdint.h>

typedef int32_t HRESULT;
typedef uint32_t ULONG, DWORD, ULONG32;
typedef int32_t BOOL;
typedef uint16_t WCHAR;
typedef uint8_t BYTE;
typedef const uint8_t *LPCBYTE;
typedef uintptr_t UINT_PTR;
typedef uintptr_t FunctionID, ClassID, ModuleID, ObjectID, ThreadID, AppDomainID, AssemblyID, ReJITID, GCHandleID;
typedef uintptr_t COR_PRF_ELT_INFO, COR_PRF_FRAME_INFO;
typedef uint32_t mdToken, mdTypeDef, mdTypeRef, mdTypeSpec, mdMethodDef, mdFieldDef, mdParamDef, mdMemberRef,
    mdSignature, mdGenericParam, mdMethodSpec, mdModuleRef, mdString;
typedef uint32_t CorElementType;
typedef const uint8_t *PCCOR_SIGNATURE;
typedef const void *UVCP_CONSTANT;
typedef void *HCORENUM;

typedef struct { uint32_t Data1; uint16_t Data2, Data3; uint8_t Data4[8]; } GUID;

typedef struct { UINT_PTR startAddress; ULONG length; } COR_PRF_FUNCTION_ARGUMENT_RANGE;
typedef struct { ULONG numRanges; ULONG totalArgumentSize; COR_PRF_FUNCTION_ARGUMENT_RANGE ranges[1]; } COR_PRF_FUNCTION_ARGUMENT_INFO;
typedef struct { mdFieldDef ridOfField; ULONG ulOffset; } COR_FIELD_OFFSET;
typedef struct { uint32_t clauseType; UINT_PTR programCounter, framePointer, shadowStackPointer; } COR_PRF_EX_CLAUSE_INFO;

typedef void (*FunctionEnter3WithInfo)(UINT_PTR functionIDOrClientID, COR_PRF_ELT_INFO eltInfo);
typedef void (*FunctionLeave3WithInfo)(UINT_PTR functionIDOrClientID, COR_PRF_ELT_INFO eltInfo);
typedef void (*FunctionTailcall3WithInfo)(UINT_PTR functionIDOrClientID, COR_PRF_ELT_INFO eltInfo);
typedef UINT_PTR (*FunctionIDMapper2)(FunctionID funcId, void *clientData, BOOL *pbHookFunction);

#define S_OK ((HRESULT)0)
#define S_FALSE ((HRESULT)1)
#define E_NOINTERFACE ((HRESULT)0x80004002)
#define E_FAIL ((HRESULT)0x80004005)
#define E_INVALIDARG ((HRESULT)0x80070057)
#define E_OUTOFMEMORY ((HRESULT)0x8007000E)
#define CLASS_E_NOAGGREGATION ((HRESULT)0x80040110)
#define CLASS_E_CLASSNOTAVAILABLE ((HRESULT)0x80040111)
#define CORPROF_E_DATAINCOMPLETE ((HRESULT)0x80131358)
#define CORPROF_E_CLASSID_IS_ARRAY ((HRESULT)0x80131365)
#define CORPROF_E_CLASSID_IS_COMPOSITE ((HRESULT)0x80131366)

// ---- GUIDs ----
static const GUID IID_IUnknown = {0x00000000, 0x0000, 0x0000, {0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}};
static const GUID IID_IClassFactory = {0x00000001, 0x0000, 0x0000, {0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}};
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

// ---- ICorProfilerCallback..11 slots (0-2 are IUnknown) ----
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

// ---- ICorProfilerInfo..Info12, one flat vtable ----
typedef struct ProfInfoVtbl {
    HRESULT (*QueryInterface)(void *self, const GUID *riid, void **ppv);
    ULONG (*AddRef)(void *self);
    ULONG (*Release)(void *self);
    // ICorProfilerInfo (from slot 3)
    HRESULT (*GetClassFromObject)(void *self, ObjectID objectId, ClassID *pClassId);
    HRESULT (*GetClassFromToken)(void *self, ModuleID moduleId, mdTypeDef typeDef, ClassID *pClassId);
    void *GetCodeInfo;
    HRESULT (*GetEventMask)(void *self, DWORD *pdwEvents);
    void *GetFunctionFromIP;
    HRESULT (*GetFunctionFromToken)(void *self, ModuleID moduleId, mdToken token, FunctionID *pFunctionId);
    void *GetHandleFromThread;
    void *GetObjectSize;
    HRESULT (*IsArrayClass)(void *self, ClassID classId, CorElementType *pBaseElemType, ClassID *pBaseClassId, ULONG *pcRank);
    HRESULT (*GetThreadInfo)(void *self, ThreadID threadId, DWORD *pdwWin32ThreadId);
    HRESULT (*GetCurrentThreadID)(void *self, ThreadID *pThreadId);
    void *GetClassIDInfo;
    void *GetFunctionInfo;
    HRESULT (*SetEventMask)(void *self, DWORD dwEvents);
    void *SetEnterLeaveFunctionHooks;
    void *SetFunctionIDMapper;
    HRESULT (*GetTokenAndMetaDataFromFunction)(void *self, FunctionID functionId, const GUID *riid, void **ppImport, mdToken *pToken);
    HRESULT (*GetModuleInfo)(void *self, ModuleID moduleId, LPCBYTE *ppBaseLoadAddress, ULONG cchName, ULONG *pcchName, WCHAR *szName, AssemblyID *pAssemblyId);
    HRESULT (*GetModuleMetaData)(void *self, ModuleID moduleId, DWORD dwOpenFlags, const GUID *riid, void **ppOut);
    void *GetILFunctionBody;
    void *GetILFunctionBodyAllocator;
    void *SetILFunctionBody;
    void *GetAppDomainInfo;
    HRESULT (*GetAssemblyInfo)(void *self, AssemblyID assemblyId, ULONG cchName, ULONG *pcchName, WCHAR *szName, AppDomainID *pAppDomainId, ModuleID *pModuleId);
    void *SetFunctionReJIT;
    void *ForceGC;
    void *SetILInstrumentedCodeMap;
    void *GetInprocInspectionInterface;
    void *GetInprocInspectionIThisThread;
    void *GetThreadContext;
    void *BeginInprocDebugging;
    void *EndInprocDebugging;
    void *GetILToNativeMapping;
    // ICorProfilerInfo2 (from slot 36)
    void *DoStackSnapshot;
    void *SetEnterLeaveFunctionHooks2;
    HRESULT (*GetFunctionInfo2)(void *self, FunctionID funcId, COR_PRF_FRAME_INFO frameInfo, ClassID *pClassId, ModuleID *pModuleId, mdToken *pToken, ULONG32 cTypeArgs, ULONG32 *pcTypeArgs, ClassID typeArgs[]);
    HRESULT (*GetStringLayout)(void *self, ULONG *pBufferLengthOffset, ULONG *pStringLengthOffset, ULONG *pBufferOffset);
    HRESULT (*GetClassLayout)(void *self, ClassID classID, COR_FIELD_OFFSET rFieldOffset[], ULONG cFieldOffset, ULONG *pcFieldOffset, ULONG *pulClassSize);
    HRESULT (*GetClassIDInfo2)(void *self, ClassID classId, ModuleID *pModuleId, mdTypeDef *pTypeDefToken, ClassID *pParentClassId, ULONG32 cNumTypeArgs, ULONG32 *pcNumTypeArgs, ClassID typeArgs[]);
    void *GetCodeInfo2;
    HRESULT (*GetClassFromTokenAndTypeArgs)(void *self, ModuleID moduleID, mdTypeDef typeDef, ULONG32 cTypeArgs, ClassID typeArgs[], ClassID *pClassID);
    void *GetFunctionFromTokenAndTypeArgs;
    void *EnumModuleFrozenObjects;
    HRESULT (*GetArrayObjectInfo)(void *self, ObjectID objectId, ULONG32 cDimensions, ULONG32 pDimensionSizes[], int pDimensionLowerBounds[], BYTE **ppData);
    HRESULT (*GetBoxClassLayout)(void *self, ClassID classId, ULONG32 *pBufferOffset);
    HRESULT (*GetThreadAppDomain)(void *self, ThreadID threadId, AppDomainID *pAppDomainId);
    HRESULT (*GetRVAStaticAddress)(void *self, ClassID classId, mdFieldDef fieldToken, void **ppAddress);
    HRESULT (*GetAppDomainStaticAddress)(void *self, ClassID classId, mdFieldDef fieldToken, AppDomainID appDomainId, void **ppAddress);
    HRESULT (*GetThreadStaticAddress)(void *self, ClassID classId, mdFieldDef fieldToken, ThreadID threadId, void **ppAddress);
    void *GetContextStaticAddress;
    HRESULT (*GetStaticFieldInfo)(void *self, ClassID classId, mdFieldDef fieldToken, uint32_t *pFieldInfo);
    void *GetGenerationBounds;
    void *GetObjectGeneration;
    HRESULT (*GetNotifiedExceptionClauseInfo)(void *self, COR_PRF_EX_CLAUSE_INFO *pinfo);
    // ICorProfilerInfo3 (from slot 57)
    void *EnumJITedFunctions;
    void *RequestProfilerDetach;
    HRESULT (*SetFunctionIDMapper2)(void *self, FunctionIDMapper2 pFunc, void *clientData);
    HRESULT (*GetStringLayout2)(void *self, ULONG *pStringLengthOffset, ULONG *pBufferOffset);
    void *SetEnterLeaveFunctionHooks3;
    HRESULT (*SetEnterLeaveFunctionHooks3WithInfo)(void *self, FunctionEnter3WithInfo pFuncEnter3WithInfo, FunctionLeave3WithInfo pFuncLeave3WithInfo, FunctionTailcall3WithInfo pFuncTailcall3WithInfo);
    HRESULT (*GetFunctionEnter3Info)(void *self, FunctionID functionId, COR_PRF_ELT_INFO eltInfo, COR_PRF_FRAME_INFO *pFrameInfo, ULONG *pcbArgumentInfo, COR_PRF_FUNCTION_ARGUMENT_INFO *pArgumentInfo);
    HRESULT (*GetFunctionLeave3Info)(void *self, FunctionID functionId, COR_PRF_ELT_INFO eltInfo, COR_PRF_FRAME_INFO *pFrameInfo, COR_PRF_FUNCTION_ARGUMENT_RANGE *pRetvalRange);
    HRESULT (*GetFunctionTailcall3Info)(void *self, FunctionID functionId, COR_PRF_ELT_INFO eltInfo, COR_PRF_FRAME_INFO *pFrameInfo);
    void *EnumModules;
    HRESULT (*GetRuntimeInformation)(void *self, uint16_t *pClrInstanceId, uint32_t *pRuntimeType, uint16_t *pMajorVersion, uint16_t *pMinorVersion, uint16_t *pBuildNumber, uint16_t *pQFEVersion, ULONG cchVersionString, ULONG *pcchVersionString, WCHAR *szVersionString);
    void *GetThreadStaticAddress2;
    void *GetAppDomainsContainingModule;
    HRESULT (*GetModuleInfo2)(void *self, ModuleID moduleId, LPCBYTE *ppBaseLoadAddress, ULONG cchName, ULONG *pcchName, WCHAR *szName, AssemblyID *pAssemblyId, DWORD *pdwModuleFlags);
    // ICorProfilerInfo4 (from slot 71)
    void *EnumThreads;
    void *InitializeCurrentThread;
    void *RequestReJIT;
    void *RequestRevert;
    void *GetCodeInfo3;
    void *GetFunctionFromIP2;
    void *GetReJITIDs;
    void *GetILToNativeMapping2;
    void *EnumJITedFunctions2;
    void *GetObjectSize2;
    // ICorProfilerInfo5 (from slot 81)
    HRESULT (*GetEventMask2)(void *self, DWORD *pdwEventsLow, DWORD *pdwEventsHigh);
    HRESULT (*SetEventMask2)(void *self, DWORD dwEventsLow, DWORD dwEventsHigh);
    // ICorProfilerInfo6 (from slot 83)
    void *EnumNgenModuleMethodsInliningThisMethod;
    // ICorProfilerInfo7 (from slot 84)
    void *ApplyMetaData;
    void *GetInMemorySymbolsLength;
    void *ReadInMemorySymbols;
    // ICorProfilerInfo8 (from slot 87)
    void *IsFunctionDynamic;
    void *GetFunctionFromIP3;
    void *GetDynamicFunctionInfo;
    // ICorProfilerInfo9 (from slot 90)
    void *GetNativeCodeStartAddresses;
    void *GetILToNativeMapping3;
    void *GetCodeInfo4;
    // ICorProfilerInfo10 (from slot 93)
    void *EnumerateObjectReferences;
    void *IsFrozenObject;
    void *GetLOHObjectSizeThreshold;
    void *RequestReJITWithInliners;
    void *SuspendRuntime;
    void *ResumeRuntime;
    // ICorProfilerInfo11 (from slot 99)
    void *GetEnvironmentVariable;
    void *SetEnvironmentVariable;
    // ICorProfilerInfo12 (from slot 101)
    void *EventPipeStartSession;
    void *EventPipeAddProviderToSession;
    void *EventPipeStopSession;
    void *EventPipeCreateProvider;
    void *EventPipeGetProviderInfo;
    void *EventPipeDefineEvent;
    void *EventPipeWriteEvent;
} ProfInfoVtbl;

// ---- IMetaDataImport then IMetaDataImport2, one flat vtable ----
typedef struct MDImportVtbl {
    HRESULT (*QueryInterface)(void *self, const GUID *riid, void **ppv);
    ULONG (*AddRef)(void *self);
    ULONG (*Release)(void *self);
    void (*CloseEnum)(void *self, HCORENUM hEnum);
    void *CountEnum;
    void *ResetEnum;
    void *EnumTypeDefs;
    void *EnumInterfaceImpls;
    void *EnumTypeRefs;
    HRESULT (*FindTypeDefByName)(void *self, const WCHAR *szTypeDef, mdToken tkEnclosingClass, mdTypeDef *ptd);
    HRESULT (*GetScopeProps)(void *self, WCHAR *szName, ULONG cchName, ULONG *pchName, GUID *pmvid);
    void *GetModuleFromScope;
    HRESULT (*GetTypeDefProps)(void *self, mdTypeDef td, WCHAR *szTypeDef, ULONG cchTypeDef, ULONG *pchTypeDef, DWORD *pdwTypeDefFlags, mdToken *ptkExtends);
    void *GetInterfaceImplProps;
    HRESULT (*GetTypeRefProps)(void *self, mdTypeRef tr, mdToken *ptkResolutionScope, WCHAR *szName, ULONG cchName, ULONG *pchName);
    void *ResolveTypeRef;
    void *EnumMembers;
    void *EnumMembersWithName;
    void *EnumMethods;
    void *EnumMethodsWithName;
    HRESULT (*EnumFields)(void *self, HCORENUM *phEnum, mdTypeDef cl, mdFieldDef rFields[], ULONG cMax, ULONG *pcTokens);
    void *EnumFieldsWithName;
    HRESULT (*EnumParams)(void *self, HCORENUM *phEnum, mdMethodDef mb, mdParamDef rParams[], ULONG cMax, ULONG *pcTokens);
    void *EnumMemberRefs;
    void *EnumMethodImpls;
    void *EnumPermissionSets;
    void *FindMember;
    void *FindMethod;
    void *FindField;
    void *FindMemberRef;
    HRESULT (*GetMethodProps)(void *self, mdMethodDef mb, mdTypeDef *pClass, WCHAR *szMethod, ULONG cchMethod, ULONG *pchMethod, DWORD *pdwAttr, PCCOR_SIGNATURE *ppvSigBlob, ULONG *pcbSigBlob, ULONG *pulCodeRVA, DWORD *pdwImplFlags);
    HRESULT (*GetMemberRefProps)(void *self, mdMemberRef mr, mdToken *ptk, WCHAR *szMember, ULONG cchMember, ULONG *pchMember, PCCOR_SIGNATURE *ppvSigBlob, ULONG *pbSig);
    void *EnumProperties;
    void *EnumEvents;
    void *GetEventProps;
    void *EnumMethodSemantics;
    void *GetMethodSemantics;
    void *GetClassLayout;
    void *GetFieldMarshal;
    void *GetRVA;
    void *GetPermissionSetProps;
    HRESULT (*GetSigFromToken)(void *self, mdSignature mdSig, PCCOR_SIGNATURE *ppvSig, ULONG *pcbSig);
    void *GetModuleRefProps;
    void *EnumModuleRefs;
    HRESULT (*GetTypeSpecFromToken)(void *self, mdTypeSpec typespec, PCCOR_SIGNATURE *ppvSig, ULONG *pcbSig);
    void *GetNameFromToken;
    void *EnumUnresolvedMethods;
    void *GetUserString;
    void *GetPinvokeMap;
    void *EnumSignatures;
    void *EnumTypeSpecs;
    void *EnumUserStrings;
    void *GetParamForMethodIndex;
    void *EnumCustomAttributes;
    void *GetCustomAttributeProps;
    void *FindTypeRef;
    void *GetMemberProps;
    HRESULT (*GetFieldProps)(void *self, mdFieldDef mb, mdTypeDef *pClass, WCHAR *szField, ULONG cchField, ULONG *pchField, DWORD *pdwAttr, PCCOR_SIGNATURE *ppvSigBlob, ULONG *pcbSigBlob, DWORD *pdwCPlusTypeFlag, UVCP_CONSTANT *ppValue, ULONG *pcchValue);
    void *GetPropertyProps;
    HRESULT (*GetParamProps)(void *self, mdParamDef tk, mdMethodDef *pmd, ULONG *pulSequence, WCHAR *szName, ULONG cchName, ULONG *pchName, DWORD *pdwAttr, DWORD *pdwCPlusTypeFlag, UVCP_CONSTANT *ppValue, ULONG *pcchValue);
    HRESULT (*GetCustomAttributeByName)(void *self, mdToken tkObj, const WCHAR *szName, const void **ppData, ULONG *pcbData);
    BOOL (*IsValidToken)(void *self, mdToken tk);
    HRESULT (*GetNestedClassProps)(void *self, mdTypeDef tdNestedClass, mdTypeDef *ptdEnclosingClass);
    void *GetNativeCallConvFromSig;
    void *IsGlobal;
    // IMetaDataImport2
    HRESULT (*EnumGenericParams)(void *self, HCORENUM *phEnum, mdToken tk, mdGenericParam rGenericParams[], ULONG cMax, ULONG *pcGenericParams);
    HRESULT (*GetGenericParamProps)(void *self, mdGenericParam gp, ULONG *pulParamSeq, DWORD *pdwParamFlags, mdToken *ptOwner, DWORD *reserved, WCHAR *wzname, ULONG cchName, ULONG *pchName);
    HRESULT (*GetMethodSpecProps)(void *self, mdMethodSpec mi, mdToken *tkParent, PCCOR_SIGNATURE *ppvSigBlob, ULONG *pcbSigBlob);
    void *EnumGenericParamConstraints;
    void *GetGenericParamConstraintProps;
    void *GetPEKind;
    void *GetVersionString;
    void *EnumMethodSpecs;
} MDImportVtbl;

// ---- COR_PRF_MONITOR (SetEventMask) ----
enum {
    COR_PRF_MONITOR_NONE = 0x0,
    COR_PRF_MONITOR_FUNCTION_UNLOADS = 0x1,
    COR_PRF_MONITOR_CLASS_LOADS = 0x2,
    COR_PRF_MONITOR_MODULE_LOADS = 0x4,
    COR_PRF_MONITOR_ASSEMBLY_LOADS = 0x8,
    COR_PRF_MONITOR_APPDOMAIN_LOADS = 0x10,
    COR_PRF_MONITOR_JIT_COMPILATION = 0x20,
    COR_PRF_MONITOR_EXCEPTIONS = 0x40,
    COR_PRF_MONITOR_GC = 0x80,
    COR_PRF_MONITOR_OBJECT_ALLOCATED = 0x100,
    COR_PRF_MONITOR_THREADS = 0x200,
    COR_PRF_MONITOR_REMOTING = 0x400,
    COR_PRF_MONITOR_CODE_TRANSITIONS = 0x800,
    COR_PRF_MONITOR_ENTERLEAVE = 0x1000,
    COR_PRF_MONITOR_CCW = 0x2000,
    COR_PRF_MONITOR_SUSPENDS = 0x10000,
    COR_PRF_MONITOR_CACHE_SEARCHES = 0x20000,
    COR_PRF_ENABLE_REJIT = 0x40000,
    COR_PRF_ENABLE_INPROC_DEBUGGING = 0x80000,
    COR_PRF_ENABLE_JIT_MAPS = 0x100000,
    COR_PRF_DISABLE_INLINING = 0x200000,
    COR_PRF_DISABLE_OPTIMIZATIONS = 0x400000,
    COR_PRF_ENABLE_OBJECT_ALLOCATED = 0x800000,
    COR_PRF_MONITOR_CLR_EXCEPTIONS = 0x1000000,
    COR_PRF_ENABLE_FUNCTION_ARGS = 0x2000000,
    COR_PRF_ENABLE_FUNCTION_RETVAL = 0x4000000,
    COR_PRF_ENABLE_FRAME_INFO = 0x8000000,
    COR_PRF_ENABLE_STACK_SNAPSHOT = 0x10000000,
    COR_PRF_USE_PROFILE_IMAGES = 0x20000000,
    COR_PRF_DISABLE_TRANSPARENCY_CHECKS_UNDER_FULL_TRUST = 0x40000000,
};
#define COR_PRF_DISABLE_ALL_NGEN_IMAGES 0x80000000u

// ---- CorElementType ----
enum {
    ELEMENT_TYPE_END = 0x00, ELEMENT_TYPE_VOID = 0x01, ELEMENT_TYPE_BOOLEAN = 0x02, ELEMENT_TYPE_CHAR = 0x03,
    ELEMENT_TYPE_I1 = 0x04, ELEMENT_TYPE_U1 = 0x05, ELEMENT_TYPE_I2 = 0x06, ELEMENT_TYPE_U2 = 0x07,
    ELEMENT_TYPE_I4 = 0x08, ELEMENT_TYPE_U4 = 0x09, ELEMENT_TYPE_I8 = 0x0a, ELEMENT_TYPE_U8 = 0x0b,
    ELEMENT_TYPE_R4 = 0x0c, ELEMENT_TYPE_R8 = 0x0d, ELEMENT_TYPE_STRING = 0x0e, ELEMENT_TYPE_PTR = 0x0f,
    ELEMENT_TYPE_BYREF = 0x10, ELEMENT_TYPE_VALUETYPE = 0x11, ELEMENT_TYPE_CLASS = 0x12, ELEMENT_TYPE_VAR = 0x13,
    ELEMENT_TYPE_ARRAY = 0x14, ELEMENT_TYPE_GENERICINST = 0x15, ELEMENT_TYPE_TYPEDBYREF = 0x16,
    ELEMENT_TYPE_I = 0x18, ELEMENT_TYPE_U = 0x19, ELEMENT_TYPE_FNPTR = 0x1b, ELEMENT_TYPE_OBJECT = 0x1c,
    ELEMENT_TYPE_SZARRAY = 0x1d, ELEMENT_TYPE_MVAR = 0x1e, ELEMENT_TYPE_CMOD_REQD = 0x1f,
    ELEMENT_TYPE_CMOD_OPT = 0x20, ELEMENT_TYPE_INTERNAL = 0x21, ELEMENT_TYPE_SENTINEL = 0x41,
    ELEMENT_TYPE_PINNED = 0x45,
};

// ---- metadata token types and attribute bits ----
enum {
    mdtModule = 0x00000000, mdtTypeRef = 0x01000000, mdtTypeDef = 0x02000000, mdtFieldDef = 0x04000000,
    mdtMethodDef = 0x06000000, mdtParamDef = 0x08000000, mdtMemberRef = 0x0a000000,
    mdtSignature = 0x11000000, mdtModuleRef = 0x1a000000, mdtTypeSpec = 0x1b000000,
    mdtAssembly = 0x20000000, mdtAssemblyRef = 0x23000000, mdtGenericParam = 0x2a000000,
    mdtMethodSpec = 0x2b000000,
};
enum { fdStatic = 0x0010, fdLiteral = 0x0040, fdHasFieldRVA = 0x0100 };
enum { mdStatic = 0x0010, mdVirtual = 0x0040 };
enum { pdIn = 0x0001, pdOut = 0x0002, pdOptional = 0x0010 };
enum { tdNestedMask = 0x00000007, tdInterface = 0x00000020 };
enum { ofRead = 0x00000000 };

#endif
