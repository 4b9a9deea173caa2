// callbacks.h: the profiler's callbacks (callbacks.c), for the COM object
// com.c gives the runtime.
#ifndef CLROTEL_CALLBACKS_H
#define CLROTEL_CALLBACKS_H

// Writes the callbacks clrotel implements into vtbl, an ICorProfilerCallback11
// vtable (CB_COUNT_11 slots, clrapi.h); the slots it leaves are com.c's:
// IUnknown's, and an S_OK stub for every other callback.
void clr_callbacks_fill(void **vtbl);

#endif
