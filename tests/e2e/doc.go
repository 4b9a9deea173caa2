// Package e2e runs the real profiler library inside the real .NET runtimes
// installed by `make deps`, against a real OTLP/gRPC receiver, and checks
// the spans that arrive.
//
// It owns the end-to-end tests and their harness (starting the runtimes,
// the receiver and the apps under tests/e2e/apps). It is test-only: it has
// no code outside its tests, and nothing imports it.
package e2e
