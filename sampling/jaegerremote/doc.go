// Package jaegerremote gets a service's sampling strategy from the Jaeger
// remote sampling HTTP API (GET endpoint?service=NAME), as Jaeger v2's
// remote_sampling extension and the Collector's jaegerremotesampling
// extension serve it, and turns it into a sampling.Strategy.
//
// It owns the protocol (the Jaeger IDL's Go types, either JSON encoding),
// polling with backoff, one poller for the sampler in force (Runner), keeping the last good strategy, and saying once
// when the endpoint's state changes. It must not call the runtime, use cgo
// or decide on traces: the profiler publishes what it delivers to the C
// hook, and package sampling resolves it per method.
package jaegerremote
