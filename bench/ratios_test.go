package main

import "testing"

func TestPairedRatios(t *testing.T) {
	for _, tc := range []struct {
		name    string
		v, base []float64
		want    ratios
		ok      bool
	}{
		{"one round", []float64{3}, []float64{2}, ratios{1.5, 1.5, 1.5}, true},
		// The rounds drift (the second is 20% slower for both runs): the
		// ratio of medians, 45/52.5 = 0.857, is not what any round saw.
		{"drift is paired away", []float64{50, 40}, []float64{55, 50}, ratios{(50.0/55 + 40.0/50) / 2, 40.0 / 50, 50.0 / 55}, true},
		{"odd rounds", []float64{1, 9, 4}, []float64{1, 3, 1}, ratios{3, 1, 4}, true},
		{"failed rounds are left out", []float64{-1, 6, 8}, []float64{2, 0, 4}, ratios{2, 2, 2}, true},
		{"nothing left", []float64{-1}, []float64{2}, ratios{}, false},
		{"baseline shorter", []float64{4, 4}, []float64{2}, ratios{2, 2, 2}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := pairedRatios(tc.v, tc.base)
			if ok != tc.ok || got != tc.want {
				t.Fatalf("pairedRatios(%v, %v) = %+v, %v; want %+v, %v", tc.v, tc.base, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		v    []float64
		want float64
	}{
		{nil, 0},
		{[]float64{7}, 7},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		if got := median(tc.v); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

func TestServiceRatios(t *testing.T) {
	untraced := []serviceResult{{rps: 100, p99: 10, cpuPerReq: 20}, {rps: 80, p99: 20, cpuPerReq: 25}}
	traced := []serviceResult{{rps: 90, p99: 12, cpuPerReq: 24}, {rps: 76, p99: 20, cpuPerReq: 25}}
	rps, p99, cpu := serviceRatios(traced, untraced)
	if want := (0.9 + 0.95) / 2; rps != want {
		t.Errorf("requests/s ratio %v, want %v", rps, want)
	}
	if want := (1.2 + 1.0) / 2; p99 != want {
		t.Errorf("p99 ratio %v, want %v", p99, want)
	}
	if want := (1.2 + 1.0) / 2; cpu != want {
		t.Errorf("CPU ratio %v, want %v", cpu, want)
	}
}
