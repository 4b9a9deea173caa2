// Package cmeta tests the profiler's C wrappers over the runtime's info and
// metadata interfaces (profiler/clrinfo.c) against a strict fake runtime:
// every buffer the wrappers hand over must be NULL with a capacity of 0, or
// hold at least the capacity they claim. The fake writes the whole claimed
// capacity, so a buffer shorter than its capacity overruns under
// AddressSanitizer (`make test` runs this package with -asan), and it
// counts every call that breaks the contract. It also follows, through
// clr_code_function, precode stubs laid out in memory to the method a
// delegate's code pointer leads to. Test-only: nothing imports it.
package cmeta
