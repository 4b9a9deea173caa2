// clrapi_check.c: compile-time guards on clrapi.h: slot numbers derived from the
// ordered method lists of corprof.idl and cor.h, so a hand edit that shifts a slot fails the build.
#include <stddef.h>
#include "clrapi.h"

#define SLOT(T, m) (offsetof(T, m) / sizeof(void *))
_Static_assert(SLOT(ProfInfoVtbl, SetEventMask) == 16, "SetEventMask");
_Static_assert(SLOT(ProfInfoVtbl, GetModuleInfo) == 20, "GetModuleInfo");
_Static_assert(SLOT(ProfInfoVtbl, GetModuleMetaData) == 21, "GetModuleMetaData");
_Static_assert(SLOT(ProfInfoVtbl, GetAssemblyInfo) == 26, "GetAssemblyInfo");
_Static_assert(SLOT(ProfInfoVtbl, GetFunctionInfo2) == 38, "GetFunctionInfo2");
_Static_assert(SLOT(ProfInfoVtbl, GetClassLayout) == 40, "GetClassLayout");
_Static_assert(SLOT(ProfInfoVtbl, GetClassIDInfo2) == 41, "GetClassIDInfo2");
_Static_assert(SLOT(ProfInfoVtbl, GetArrayObjectInfo) == 46, "GetArrayObjectInfo");
_Static_assert(SLOT(ProfInfoVtbl, GetBoxClassLayout) == 47, "GetBoxClassLayout");
_Static_assert(SLOT(ProfInfoVtbl, GetRVAStaticAddress) == 49, "GetRVAStaticAddress");
_Static_assert(SLOT(ProfInfoVtbl, GetAppDomainStaticAddress) == 50, "GetAppDomainStaticAddress");
_Static_assert(SLOT(ProfInfoVtbl, GetThreadStaticAddress) == 51, "GetThreadStaticAddress");
_Static_assert(SLOT(ProfInfoVtbl, SetFunctionIDMapper2) == 59, "SetFunctionIDMapper2");
_Static_assert(SLOT(ProfInfoVtbl, GetStringLayout2) == 60, "GetStringLayout2");
_Static_assert(SLOT(ProfInfoVtbl, SetEnterLeaveFunctionHooks3WithInfo) == 62, "SetEnterLeaveFunctionHooks3WithInfo");
_Static_assert(SLOT(ProfInfoVtbl, GetFunctionEnter3Info) == 63, "GetFunctionEnter3Info");
_Static_assert(SLOT(ProfInfoVtbl, GetFunctionLeave3Info) == 64, "GetFunctionLeave3Info");
_Static_assert(SLOT(ProfInfoVtbl, GetFunctionTailcall3Info) == 65, "GetFunctionTailcall3Info");
_Static_assert(SLOT(ProfInfoVtbl, GetModuleInfo2) == 70, "GetModuleInfo2");
_Static_assert(SLOT(ProfInfoVtbl, SetEventMask2) == 82, "SetEventMask2");
_Static_assert(sizeof(ProfInfoVtbl) / sizeof(void *) == 108, "ICorProfilerInfo12 slots");
_Static_assert(SLOT(MDImportVtbl, CloseEnum) == 3, "CloseEnum");
_Static_assert(SLOT(MDImportVtbl, GetTypeDefProps) == 12, "GetTypeDefProps");
_Static_assert(SLOT(MDImportVtbl, GetTypeRefProps) == 14, "GetTypeRefProps");
_Static_assert(SLOT(MDImportVtbl, EnumFields) == 20, "EnumFields");
_Static_assert(SLOT(MDImportVtbl, EnumParams) == 22, "EnumParams");
_Static_assert(SLOT(MDImportVtbl, GetMethodProps) == 30, "GetMethodProps");
_Static_assert(SLOT(MDImportVtbl, GetMemberRefProps) == 31, "GetMemberRefProps");
_Static_assert(SLOT(MDImportVtbl, GetSigFromToken) == 41, "GetSigFromToken");
_Static_assert(SLOT(MDImportVtbl, GetTypeSpecFromToken) == 44, "GetTypeSpecFromToken");
_Static_assert(SLOT(MDImportVtbl, GetFieldProps) == 57, "GetFieldProps");
_Static_assert(SLOT(MDImportVtbl, GetParamProps) == 59, "GetParamProps");
_Static_assert(SLOT(MDImportVtbl, GetCustomAttributeByName) == 60, "GetCustomAttributeByName");
_Static_assert(SLOT(MDImportVtbl, GetNestedClassProps) == 62, "GetNestedClassProps");
_Static_assert(SLOT(MDImportVtbl, EnumGenericParams) == 65, "EnumGenericParams");
_Static_assert(SLOT(MDImportVtbl, GetGenericParamProps) == 66, "GetGenericParamProps");
_Static_assert(SLOT(MDImportVtbl, GetMethodSpecProps) == 67, "GetMethodSpecProps");
_Static_assert(CB_Initialize == 3 && CB_Shutdown == 4, "IUnknown takes slots 0-2");
