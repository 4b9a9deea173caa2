// Command bench is `make bench`: the overhead benchmark. It runs the
// examples/bench workload under six configurations, interleaved, several
// times each, and prints one table of ratios measured in this run:
//
//	1 no profiler
//	2 the empty-hook floor (bench/floor: same event mask and slow-path hooks, empty bodies)
//	3 clrotel, no method selected
//	4 clrotel, the benchmark's methods selected, sampler always_off
//	5 clrotel, selected, always_on, values captured, exported to a local OTLP receiver
//	6 as 5 with traceidratio 0.01
//	7 as 5 with the calls paced at a fixed rate (default 200,000/s): does
//	  export keep up without drops?
//	8 clrotel with the defaults (the whole app selected): the calls fold
//	  into their traced caller (what folding costs per call)
//
// Then a start-up section (startup.go; -startup-only runs it alone): hello
// world and a real program, untraced, under the floor, and under clrotel
// with nothing selected and with the defaults. And a real-programs section
// (realprog.go; -realprog-only runs it alone): CPU-bound third-party
// programs untraced, under the own-code floor and under clrotel's defaults.
// And a clrotel run section (runcost.go; -run-only runs it alone): what
// `clrotel run` adds to hello world (its fixed cost) and to the Cecil
// reader (its cost per span), printing every span, against the same app
// attached with `clrotel env`.
//
// It also writes the raw numbers to bench/results/. It asserts nothing.
//
// It owns the benchmark's configurations, its runs and its report. It must
// not assert anything, nor be run by the test suite: its numbers depend on
// the machine and on what else runs on it.
package main
