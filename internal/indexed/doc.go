// Package indexed is a map whose values also get dense indexes, read by
// index without a lock: the profiler's functions, which the hooks record
// by index and the drainer looks up per record.
//
// It must not move a value once indexed (readers hold no lock), nor grow
// without bound: past its capacity, values are kept without an index.
package indexed
