// Package difftest runs a generated program untraced and traced on each
// .NET runtime and says how the traced runs differ from the untraced one.
// It is shared by the end-to-end test (tests/e2e/generated_test.go) and
// the long campaign (cmd/csgen-campaign).
//
// It owns compiling with mcs, running with and without the profiler
// against a fresh OTLP receiver, and the comparison. It must not decide
// how many seeds run or where results are kept.
package difftest
