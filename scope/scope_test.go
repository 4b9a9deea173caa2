package scope

import (
	"reflect"
	"testing"
)

func TestPrefixes(t *testing.T) {
	for _, tc := range []struct {
		include    []string
		want       []string
		everywhere bool
	}{
		{nil, nil, false},
		{[]string{"Acme.Shop.*"}, []string{"Acme.Shop."}, false},
		{[]string{"Nothing.Selected"}, []string{"Nothing.Selected"}, false},
		{[]string{"Acme.Sh?p.Cart.*", "Bench.Work.Run"}, []string{"Acme.Sh", "Bench.Work.Run"}, false},
		{[]string{"Acme.*", "Acme.Shop.*"}, []string{"Acme."}, false},
		{[]string{"Acme.*", "Acme.*"}, []string{"Acme."}, false},
		{[]string{"Acme.*", "*.Get*"}, nil, true},
		{[]string{"?cme.*"}, nil, true},
	} {
		got, every := Prefixes(tc.include)
		if !reflect.DeepEqual(got, tc.want) || every != tc.everywhere {
			t.Errorf("Prefixes(%q) = %q, %v; want %q, %v", tc.include, got, every, tc.want, tc.everywhere)
		}
	}
}

func TestReachesFramework(t *testing.T) {
	for _, tc := range []struct {
		include []string
		want    bool
	}{
		{[]string{"Nothing.Selected"}, false},
		{[]string{"Acme.Shop.*", "Bench.Work.*"}, false},
		{[]string{"System.Linq.Enumerable.Range"}, true},
		{[]string{"Sys*"}, true},
		{[]string{"S*"}, true},
		{[]string{"String.Join"}, true},
		{[]string{"Interop.Sys.*"}, true},
		{[]string{"Systematic.*"}, false},
		{[]string{"*.Get*"}, true},
	} {
		p, every := Prefixes(tc.include)
		if got := ReachesFramework(p, every); got != tc.want {
			t.Errorf("ReachesFramework(%q) = %v, want %v", tc.include, got, tc.want)
		}
	}
}

func TestForStartup(t *testing.T) {
	u := func(s string) []uint16 {
		out := make([]uint16, len(s))
		for i := range s {
			out[i] = uint16(s[i])
		}
		return out
	}
	for _, tc := range []struct {
		include []string
		want    Startup
	}{
		// No pattern, or one that matches anywhere: one empty prefix, every module.
		{nil, Startup{List: []uint16{0}}},
		{[]string{"*.Get*"}, Startup{List: []uint16{0}, ReachesFramework: true}},
		{[]string{"Acme.Shop.*"}, Startup{List: append(u("Acme.Shop."), 0)}},
		{[]string{"Acme.*", "Bench.Work.Run", "Acme.Shop.*"}, Startup{List: append(append(u("Acme."), 0), append(u("Bench.Work.Run"), 0)...)}},
		{[]string{"System.Linq.*"}, Startup{List: append(u("System.Linq."), 0), ReachesFramework: true}},
		{[]string{"Acme.Café.*"}, Startup{List: []uint16{'A', 'c', 'm', 'e', '.', 'C', 'a', 'f', 0xe9, '.', 0}}},
	} {
		if got := ForStartup(tc.include); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ForStartup(%q) = %v, want %v", tc.include, got, tc.want)
		}
	}
}
