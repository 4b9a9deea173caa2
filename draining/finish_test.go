package draining

import (
	"reflect"
	"testing"
	"time"
)

// finishLog records, in order, what Finish asked of the loop and export.
type finishLog struct {
	calls     []string
	stalled   bool
	finishes  bool // the loop ends within Finish's wait
	waitEnds  bool // it ends within Wait's
	waitStops bool // the export's stopping is what lets it end
	stopped   bool
}

func (f *finishLog) Stalled() bool { f.calls = append(f.calls, "stalled?"); return f.stalled }
func (f *finishLog) StopWaiting()  { f.calls = append(f.calls, "stop waiting"); f.stopped = true }
func (f *finishLog) Finish(wait time.Duration) bool {
	f.calls = append(f.calls, "finish "+wait.String())
	return f.finishes
}
func (f *finishLog) Wait(wait time.Duration) bool {
	f.calls = append(f.calls, "wait "+wait.String())
	return f.waitEnds && (!f.waitStops || f.stopped)
}

func TestFinish(t *testing.T) {
	for _, tc := range []struct {
		name  string
		log   finishLog
		want  bool
		calls []string
	}{
		{"drained in time", finishLog{finishes: true}, true, []string{"stalled?", "finish 2.5s"}},
		{"collector not answering: no waiting for room", finishLog{stalled: true, finishes: true}, true,
			[]string{"stalled?", "stop waiting", "finish 2.5s"}},
		{"collector not keeping up: warned, then no more waiting", finishLog{waitEnds: true, waitStops: true}, true,
			[]string{"stalled?", "finish 2.5s", "warn", "stop waiting", "wait 1s"}},
		{"the loop never ends", finishLog{}, false,
			[]string{"stalled?", "finish 2.5s", "warn", "stop waiting", "wait 1s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := tc.log
			got := Finish(&l, &l, 5*time.Second, func() { l.calls = append(l.calls, "warn") })
			if got != tc.want || !reflect.DeepEqual(l.calls, tc.calls) {
				t.Errorf("Finish = %v after %q; want %v after %q", got, l.calls, tc.want, tc.calls)
			}
		})
	}
}
