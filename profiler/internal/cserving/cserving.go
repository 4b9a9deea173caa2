package cserving

/*
#include "serving.h"

static int due(uint64_t after, uint32_t children, uint64_t born, uint32_t level, uint32_t calls, uint64_t now) {
    clr_serving_rule r = {after, children};
    return clr_serving_due(r, born, level, calls, now);
}

static int work_due(uint64_t after, uint32_t children, uint64_t born, uint32_t queued, uint64_t now) {
    clr_serving_rule r = {after, children};
    return clr_serving_work_due(r, born, queued, now);
}
*/
import "C"

// Due and WorkDue are the C rule's verdicts on a frame outside any unit of
// work (the hooks never ask them of one inside).
func Due(afterNs uint64, children uint32, born uint64, level, calls uint32, now uint64) bool {
	return C.due(C.uint64_t(afterNs), C.uint32_t(children), C.uint64_t(born), C.uint32_t(level), C.uint32_t(calls), C.uint64_t(now)) != 0
}

func WorkDue(afterNs uint64, children uint32, born uint64, queued uint32, now uint64) bool {
	return C.work_due(C.uint64_t(afterNs), C.uint32_t(children), C.uint64_t(born), C.uint32_t(queued), C.uint64_t(now)) != 0
}
