package config

import (
	"runtime"
	"testing"
)

func TestGoProcs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	tests := []struct {
		name   string
		env    map[string]string
		before int
		want   int
	}{
		{name: "two unless set", env: map[string]string{}, before: 1, want: 2},
		{name: "two on a larger machine", env: map[string]string{}, before: 8, want: 2},
		{name: "the user's number kept", env: map[string]string{"GOMAXPROCS": "3"}, before: 3, want: 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runtime.GOMAXPROCS(tc.before)
			got := GoProcs(func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok })
			if got != tc.want || runtime.GOMAXPROCS(0) != tc.want {
				t.Errorf("GoProcs = %d, GOMAXPROCS now %d; want %d", got, runtime.GOMAXPROCS(0), tc.want)
			}
		})
	}
}
