package config

import "runtime"

// GoProcs keeps clrotel's Go side on one processor unless GOMAXPROCS is
// set, and returns the number in force. Its work is the drainer, one
// locked thread that more processors do not speed, with the export and the
// planner beside it. A second processor only lets Go's scheduler wake and
// spin threads for that work among the app's own: a traced async service on
// 2 cores served about 10% more requests per second with one (perf on the
// app, docs/performance.md).
func GoProcs(lookup func(string) (string, bool)) int {
	if _, set := lookup("GOMAXPROCS"); set {
		return runtime.GOMAXPROCS(0)
	}
	runtime.GOMAXPROCS(1)
	return 1
}
