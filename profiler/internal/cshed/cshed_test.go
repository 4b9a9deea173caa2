package cshed

import (
	"testing"
	"time"

	"github.com/clrotel/clrotel/shedding"
)

const ring = 512 << 10

func TestNoLimit(t *testing.T) {
	Reset()
	for i := int64(0); i < 1000; i++ {
		if !Admit(0, ring, false, i) {
			t.Fatalf("root %d shed with no limit", i)
		}
	}
}

func TestBufferAndBacklog(t *testing.T) {
	Reset()
	if !Admit(ring/2, ring, false, 1) || Admit(ring/2+8, ring, false, 1) || Admit(ring/2+8, ring, true, 1) {
		t.Errorf("a root must start with half its ring free, and only then")
	}
	Backlog(true)
	if Admit(0, ring, false, 2) || Admit(0, ring, true, 2) {
		t.Errorf("a root started while the drainer is behind")
	}
	Backlog(false)
	if !Admit(0, ring, false, 3) {
		t.Errorf("a root shed once the backlog cleared")
	}
}

// The hook admits what shedding's Limit says: over a span of time, the
// rate times it plus the burst, for roots arriving far faster.
func TestRateParity(t *testing.T) {
	for _, l := range []shedding.Limit{{Rate: 100, Burst: 10}, {Rate: 2500, Burst: 250}, {Rate: 1, Burst: 1}} {
		Reset()
		Set(l.Params())
		const span = 2 * time.Second
		admitted := 0
		start := int64(time.Hour) // a clock far from the bucket's zero state
		for now := start; now < start+int64(span); now += int64(50 * time.Microsecond) {
			if Admit(0, ring, false, now) {
				admitted++
			}
		}
		want := l.Rate*span.Seconds() + l.Burst
		if float64(admitted) > want+1 || float64(admitted) < min(want*0.98, want-1) { // the span's end is exclusive
			t.Errorf("%v: %d admitted in %v, want about %.0f", l, admitted, span, want)
		}
	}
}

// A root joining a caller's sampled trace may take tokens further ahead:
// with the bucket spent for local roots, it is still admitted, and it
// then holds the bucket back for local roots, never for more than the
// same rate overall.
func TestJoinedRootsFirst(t *testing.T) {
	Reset()
	l := shedding.Limit{Rate: 100, Burst: 10}
	Set(l.Params())
	now := int64(time.Hour)
	local := 0
	for Admit(0, ring, false, now) {
		local++
	}
	if local != 10 {
		t.Fatalf("%d local roots admitted at once, want the burst of 10", local)
	}
	joined := 0
	for Admit(0, ring, true, now) {
		joined++
	}
	if joined < 10 || joined > 12 {
		t.Errorf("%d joined roots admitted past the local burst, want about 11", joined)
	}
	if Admit(0, ring, false, now+int64(100*time.Millisecond)) {
		t.Errorf("a local root admitted while joined roots took the bucket ahead")
	}
}

// A timed record counts its time toward the CPU budget, but a thread
// descheduled inside one (a loaded machine) counts no more than a record
// can take: the wait is not span work.
func TestRecordCost(t *testing.T) {
	const start = 1_000_000_000
	tests := []struct {
		name string
		now  uint64
		want uint64
	}{
		{"a record", start + 800, 800},
		{"a record reading large values", start + 40_000, 40_000},
		{"preempted for a time slice", start + 4_000_000, 50_000},
		{"preempted for a second", start + 1_000_000_000, 50_000},
		{"a clock stepped back", start - 5, 0},
		{"the same instant", start, 0},
	}
	for _, tt := range tests {
		if got := RecordCost(start, tt.now); got != tt.want {
			t.Errorf("%s: %d ns counted, want %d", tt.name, got, tt.want)
		}
	}
}
