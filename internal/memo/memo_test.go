package memo

import (
	"errors"
	"sync"
	"testing"
)

func TestMap(t *testing.T) {
	var m Map[int, string]
	asks := 0
	ask := func(v string, err error) func() (string, error) {
		return func() (string, error) { asks++; return v, err }
	}
	steps := []struct {
		key     int
		v       string
		err     error
		want    string
		wantErr bool
		asks    int
	}{
		{1, "one", nil, "one", false, 1},
		{1, "other", nil, "one", false, 1}, // remembered
		{2, "two", nil, "two", false, 2},   // another key, another answer
		{3, "", errors.New("no"), "", true, 3},
		{3, "three", nil, "three", false, 4}, // a failure is asked again
		{3, "x", nil, "three", false, 4},
	}
	for i, s := range steps {
		got, err := m.Get(s.key, ask(s.v, s.err))
		if (err != nil) != s.wantErr || got != s.want || asks != s.asks {
			t.Errorf("step %d: Get(%d) = %q, %v after %d asks; want %q (error %v) after %d", i, s.key, got, err, asks, s.want, s.wantErr, s.asks)
		}
	}
	if m.Len() != 3 {
		t.Errorf("Len = %d, want 3", m.Len())
	}
}

func TestMapLimit(t *testing.T) {
	m := Map[int, int]{Limit: 2}
	asks := 0
	for range 2 {
		for k := range 4 {
			if v, _ := m.Get(k, func() (int, error) { asks++; return k * 10, nil }); v != k*10 {
				t.Fatalf("Get(%d) = %d", k, v)
			}
		}
	}
	if m.Len() != 2 || asks != 6 { // keys 0, 1 kept; 2, 3 asked twice
		t.Errorf("Len = %d after %d asks, want 2 after 6", m.Len(), asks)
	}
}

func TestMapConcurrent(t *testing.T) {
	var m Map[int, int]
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 100 {
				if v, _ := m.Get(k, func() (int, error) { return k + 1, nil }); v != k+1 {
					t.Errorf("goroutine %d: Get(%d) = %d", g, k, v)
				}
			}
		}()
	}
	wg.Wait()
}

func TestMapRenew(t *testing.T) {
	m := Map[int, int]{Limit: 2, Renew: true}
	asks := 0
	get := func(k int) {
		if v, _ := m.Get(k, func() (int, error) { asks++; return k * 10, nil }); v != k*10 {
			t.Fatalf("Get(%d) = %d", k, v)
		}
	}
	for _, s := range []struct {
		key, asks, len int
	}{
		{0, 1, 1}, {1, 2, 2}, {0, 2, 2}, // kept
		{2, 3, 1}, // full: forgets 0 and 1, keeps 2
		{2, 3, 1}, {1, 4, 2}, {0, 5, 1},
	} {
		get(s.key)
		if asks != s.asks || m.Len() != s.len {
			t.Errorf("Get(%d): %d asks, Len %d; want %d, %d", s.key, asks, m.Len(), s.asks, s.len)
		}
	}
}
