// Package creader tests the profiler's C value reader (profiler/values.c)
// outside the runtime: it compiles the production C sources against a fake
// ICorProfilerInfo and feeds them synthetic objects, hostile pointers
// included. Test-only: nothing imports it.
package creader
