// fake.h: a strict fake of the runtime's name-returning APIs for clrinfo.c.
#ifndef CLROTEL_CMETA_FAKE_H
#define CLROTEL_CMETA_FAKE_H

#include <stdint.h>

void fake_reset(const char *name, uint32_t nfields, uint32_t ntype_args);
int fake_violations(void);
const char *fake_last_violation(void);
void *fake_import(void);
// ip is compiled code of function fid (GetFunctionFromIP); 0: none.
void fake_set_code(uintptr_t ip, uintptr_t fid);

#endif
