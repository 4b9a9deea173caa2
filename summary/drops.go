package summary

import (
	"fmt"
	"time"
)

// DropsEvery is how often the drops are reported while the app runs.
const DropsEvery = 10 * time.Second

// DropCounts are the counts so far of what was not traced in full.
type DropCounts struct {
	Dropped               uint64       // calls the hooks could not record
	ShedTraces, ShedCalls uint64       // shed under load
	Limit                 fmt.Stringer // the admission of new traces now
	ValuesDropped         uint64       // calls traced without their values
}

// Drops reports what was not traced since its last report. Its zero value
// has reported nothing; it is used from one goroutine.
type Drops struct {
	last     DropCounts
	reported time.Time
}

// Due says whether a report is due at now (forced: at exit), and if so
// takes now as the time of the report.
func (d *Drops) Due(now time.Time, force bool) bool {
	if !force && now.Sub(d.reported) < DropsEvery {
		return false
	}
	d.reported = now
	return true
}

// Start takes now as the time of the last report: the first comes
// DropsEvery later.
func (d *Drops) Start(now time.Time) { d.reported = now }

// Report is the lines on what grew since the last report.
func (d *Drops) Report(c DropCounts) []Line {
	var l lines
	if c.Dropped > d.last.Dropped {
		l.add(Warn, fmt.Sprintf("%d calls not traced since the last report (%d in all): capture buffers full or thread slots exhausted", c.Dropped-d.last.Dropped, c.Dropped))
		d.last.Dropped = c.Dropped
	}
	if c.ShedCalls > d.last.ShedCalls {
		l.add(Info, fmt.Sprintf("%d traces (%d calls) shed under load since the last report, %d so far; new traces now: %v",
			c.ShedTraces-d.last.ShedTraces, c.ShedCalls-d.last.ShedCalls, c.ShedTraces, c.Limit))
		d.last.ShedTraces, d.last.ShedCalls = c.ShedTraces, c.ShedCalls
	}
	if c.ValuesDropped > d.last.ValuesDropped {
		l.add(Warn, fmt.Sprintf("%d calls traced without their values since the last report, %d so far: capture buffers too full for them (spans marked dotnet.values.dropped)",
			c.ValuesDropped-d.last.ValuesDropped, c.ValuesDropped))
		d.last.ValuesDropped = c.ValuesDropped
	}
	return l
}
