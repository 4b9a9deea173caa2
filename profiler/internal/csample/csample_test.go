package csample

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/clrotel/clrotel/sampling"
)

func TestDecisionParity(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	bounds := []uint64{0, 1, sampling.Bound(0.001), sampling.Bound(0.25), sampling.Bound(0.5), sampling.Bound(0.999), 1<<63 - 1, sampling.AlwaysBound}
	for i := 0; i < 200000; i++ {
		var tid [16]byte
		binary.LittleEndian.PutUint64(tid[:8], r.Uint64())
		binary.LittleEndian.PutUint64(tid[8:], r.Uint64())
		if i%1000 == 0 { // the edges of the comparison too
			binary.BigEndian.PutUint64(tid[8:], (bounds[i/1000%len(bounds)]<<1)|uint64(i&1))
		}
		b := bounds[i%len(bounds)]
		if got, want := Sampled(tid, b), sampling.Sampled(tid, b); got != want {
			t.Fatalf("tid %x bound %d: C %v, Go %v", tid, b, got, want)
		}
	}
}

func TestRateLimiterParity(t *testing.T) {
	for _, tc := range []struct {
		rate  float64
		burst int
	}{{10, 1}, {10, 3}, {1000, 50}, {0.5, 2}} {
		ref := sampling.NewLimiter(tc.rate, tc.burst)
		iv, tol := ref.Params()
		c := NewLimiter(iv, tol)
		r := rand.New(rand.NewPCG(9, uint64(tc.burst)))
		now := int64(1e12)
		for i := 0; i < 100000; i++ {
			now += int64(r.IntN(int(iv/2 + 1)))
			if got, want := c.Allow(now), ref.Allow(now); got != want {
				t.Fatalf("rate %v burst %d, step %d at %d: C %v, Go %v", tc.rate, tc.burst, i, now, got, want)
			}
		}
	}
}
