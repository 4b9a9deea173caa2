package summary

import (
	"reflect"
	"testing"
)

func TestDisarm(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want []Line
	}{
		{-2, nil},
		{-1, []Line{{Info, "teardown: -1 of the runtime's 6 ELT helpers return at once from now on (-1: libcoreclr.so's symbols unreadable)"}}},
		{6, []Line{{Info, "teardown: 6 of the runtime's 6 ELT helpers return at once from now on (-1: libcoreclr.so's symbols unreadable)"}}},
	} {
		if got := Disarm(tc.n, 6); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Disarm(%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
}

func TestSharedCodeLines(t *testing.T) {
	const direct = "`this` of work items and state machines read from the runtime's saved registers: "
	for _, tc := range []struct {
		name string
		s    SharedCode
		want []Line
	}{
		{"direct, nothing missed", SharedCode{ThisDirect: 1}, []Line{{Debug, direct + "true"}}},
		{"asked of the runtime", SharedCode{}, []Line{{Debug, direct + "false"}}},
		{"disagreed", SharedCode{ThisDirect: -1},
			[]Line{{Info, "the runtime's saved registers disagreed with its GetFunctionEnter3Info about `this`: it is asked each time"}}},
		{"layouts missed and past the cache", SharedCode{Missing: 2, Uncached: 3, Classes: 4, ThisDirect: 1}, []Line{
			{Warn, "async: 2 steps of shared generic code found no added fields in their class's layout: traced as plain calls"},
			{Info, "async: 3 steps of shared generic code met a class past the 4 each remembers: its layout was asked at the call"},
			{Debug, direct + "true"},
		}},
	} {
		if got := tc.s.Lines(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
