// Package cserving tests the profiler's C serving rule (profiler/serving.h,
// symlinked here so the go command hashes it) against its Go reference,
// serving.Rule.Due. Test-only: nothing imports it.
package cserving
