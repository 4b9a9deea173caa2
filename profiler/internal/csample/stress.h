// stress.h: reader threads that decide with published strategy blocks in a
// loop, on fake thread slots, to test strategy.c's reclamation (test only).
#ifndef CSAMPLE_STRESS_H
#define CSAMPLE_STRESS_H
#include <stdint.h>
#include "capture.h"

#define STRESS_POISON 0xdeadbeefdeadbeefull

int stress_start(int threads);
void stress_stop(void);
uint64_t stress_violations(void);
uint64_t stress_decisions(void);
// Marks a retired block as freed: a reader that still uses it sees it.
void stress_poison(clr_strategy *st);
#endif
