package cserving

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/clrotel/clrotel/serving"
)

// TestDueParity: the C rule and the Go reference agree on frames of every
// kind, around each threshold.
func TestDueParity(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 28))
	rules := []serving.Rule{serving.Default(), {}, {After: time.Millisecond}, {Children: 1}, {After: time.Hour, Children: 1 << 20}}
	pick := func(edges ...uint32) uint32 {
		if r.IntN(2) == 0 {
			e := edges[r.IntN(len(edges))]
			return e + uint32(r.IntN(3)) - 1
		}
		return r.Uint32N(1 << 12)
	}
	base := uint64(time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC).UnixNano())
	for i := 0; i < 100000; i++ {
		rule := rules[i%len(rules)]
		born := base + r.Uint64N(1<<40)
		age := int64(r.Uint64N(uint64(2 * time.Second)))
		if r.IntN(4) == 0 {
			age = int64(rule.After) + int64(r.IntN(3)) - 1
		}
		if r.IntN(20) == 0 {
			age = -age // a clock that went back
		}
		now := uint64(int64(born) + age)
		f := serving.Frame{Born: time.Unix(0, int64(born)), Level: int(pick(0, 1)), Calls: pick(rule.Children), Queued: pick(rule.Children)}
		at := time.Unix(0, int64(now))
		if got, want := Due(uint64(rule.After), rule.Children, born, uint32(f.Level), f.Calls, now), rule.Due(f, at); got != want {
			t.Fatalf("Due: rule %+v, frame %+v, age %v: C %v, Go %v", rule, f, time.Duration(age), got, want)
		}
		if got, want := WorkDue(uint64(rule.After), rule.Children, born, f.Queued, now), rule.WorkDue(f, at); got != want {
			t.Fatalf("WorkDue: rule %+v, frame %+v, age %v: C %v, Go %v", rule, f, time.Duration(age), got, want)
		}
	}
}
