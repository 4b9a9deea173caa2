// Package config holds what operators set: method selection, capture
// limits, folding, sampling, export batching and logging, from the
// defaults, the YAML file CLROTEL_CONFIG names (reread while the process
// runs) and the environment, and the processors clrotel's Go side runs on
// (GoProcs). It parses and validates; it must not touch
// the runtime, the exporter or the file system beyond reading what it is
// given.
package config
