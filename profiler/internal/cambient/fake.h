#ifndef CAMBIENT_FAKE_H
#define CAMBIENT_FAKE_H
#include <stdint.h>

void fake_init(void);
// What GetCurrentThreadID and GetThreadStaticAddress answer, and how many
// times the latter was asked.
void fake_set_thread(uintptr_t tid, uintptr_t static_addr);
uint64_t fake_static_asks(void);
// The `this` GetFunctionEnter3Info reports (for Activity.Stop).
void fake_set_this(uintptr_t obj);
void *fake_unmapped_page(void);
#endif
