package summary

import (
	"reflect"
	"testing"
	"time"
)

type limit string

func (l limit) String() string { return string(l) }

func TestDropsReport(t *testing.T) {
	var d Drops
	steps := []struct {
		counts DropCounts
		want   []Line
	}{
		{DropCounts{Limit: limit("unlimited")}, nil},
		{DropCounts{Dropped: 5, ShedTraces: 2, ShedCalls: 20, Limit: limit("100/s"), ValuesDropped: 1}, []Line{
			{Warn, "5 calls not traced since the last report (5 in all): capture buffers full or thread slots exhausted"},
			{Info, "2 traces (20 calls) shed under load since the last report, 2 so far; new traces now: 100/s"},
			{Warn, "1 calls traced without their values since the last report, 1 so far: capture buffers too full for them (spans marked dotnet.values.dropped)"},
		}},
		// Nothing grew: nothing to say.
		{DropCounts{Dropped: 5, ShedTraces: 2, ShedCalls: 20, Limit: limit("100/s"), ValuesDropped: 1}, nil},
		// Only what grew, counted from the last report.
		{DropCounts{Dropped: 7, ShedTraces: 3, ShedCalls: 20, Limit: limit("50/s"), ValuesDropped: 1}, []Line{
			{Warn, "2 calls not traced since the last report (7 in all): capture buffers full or thread slots exhausted"},
		}},
		{DropCounts{Dropped: 7, ShedTraces: 3, ShedCalls: 25, Limit: limit("50/s"), ValuesDropped: 4}, []Line{
			{Info, "1 traces (5 calls) shed under load since the last report, 3 so far; new traces now: 50/s"},
			{Warn, "3 calls traced without their values since the last report, 4 so far: capture buffers too full for them (spans marked dotnet.values.dropped)"},
		}},
	}
	for i, s := range steps {
		if got := d.Report(s.counts); !reflect.DeepEqual(got, s.want) {
			t.Errorf("step %d: Report =\n%+v\nwant\n%+v", i, got, s.want)
		}
	}
}

func TestDropsDue(t *testing.T) {
	var d Drops
	t0 := time.Unix(100, 0)
	d.Start(t0)
	for _, tc := range []struct {
		at    time.Duration
		force bool
		want  bool
	}{
		{time.Second, false, false},
		{DropsEvery - 1, false, false},
		{DropsEvery, false, true},
		{DropsEvery + time.Second, false, false}, // a second after the last report
		{DropsEvery + 2*time.Second, true, true}, // forced: at exit
		{2 * DropsEvery, false, false},
		{2*DropsEvery + 2*time.Second, false, true},
	} {
		if got := d.Due(t0.Add(tc.at), tc.force); got != tc.want {
			t.Errorf("Due(+%v, %v) = %v; want %v", tc.at, tc.force, got, tc.want)
		}
	}
}
