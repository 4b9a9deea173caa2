package selection

import "testing"

func TestSelected(t *testing.T) {
	tests := []struct {
		name     string
		s        Settings
		assembly string
		method   string
		want     bool
	}{
		{"own code by default", Settings{}, "Shop", "Acme.Shop.Cart.Add", true},
		{"the runtime's own assemblies are out by default", Settings{}, "System.Private.CoreLib", "System.String.Concat", false},
		{"mscorlib is the runtime's", Settings{}, "mscorlib", "System.Object.ToString", false},
		{"default excludes apply to own code", Settings{DefaultExclude: []string{"*.<>c*"}}, "Shop", "Acme.Shop.Cart.<>c.<Add>b__0", false},
		{"excludes add to the defaults", Settings{DefaultExclude: []string{"X.*"}, Exclude: []string{"Acme.Shop.Log.*"}}, "Shop", "Acme.Shop.Log.Write", false},
		{"an include selects only what it matches", Settings{Include: []string{"Acme.Shop.*"}}, "Shop", "Acme.Other.Run", false},
		{"an include reaches the framework", Settings{Include: []string{"System.Text.*"}}, "System.Private.CoreLib", "System.Text.StringBuilder.Append", true},
		{"with an include the default excludes do not apply", Settings{Include: []string{"Acme.*"}, DefaultExclude: []string{"Acme.Gen.*"}}, "Shop", "Acme.Gen.Run", true},
		{"an exclude wins over an include", Settings{Include: []string{"Acme.*"}, Exclude: []string{"Acme.Shop.Hot*"}}, "Shop", "Acme.Shop.HotLoop", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := New(tc.s).Selected(tc.assembly, tc.method); got != tc.want {
				t.Errorf("Selected(%q, %q) = %v, want %v", tc.assembly, tc.method, got, tc.want)
			}
		})
	}
}

func TestTraits(t *testing.T) {
	p := New(Settings{Capture: true, FoldExempt: []string{"Acme.Hot.*"}, Entry: []string{"Acme.Api.Handle"}, CaptureExclude: []string{"Acme.Secret.*"}})
	tests := []struct {
		method string
		step   bool
		want   Traits
	}{
		{"Acme.Shop.Add", false, Traits{Capture: true}},
		{"Acme.Hot.Loop", false, Traits{FoldExempt: true, Capture: true}},
		{"Acme.Api.Handle", false, Traits{Entry: true, Capture: true}},
		{"Acme.Secret.Login", false, Traits{}},
		{"Acme.Shop.<Run>d__0.MoveNext", true, Traits{}},
	}
	for _, tc := range tests {
		if got := p.Traits(tc.method, tc.step); got != tc.want {
			t.Errorf("Traits(%q, %v) = %+v, want %+v", tc.method, tc.step, got, tc.want)
		}
	}
	if got := New(Settings{}).Traits("Acme.Shop.Add", false); got.Capture {
		t.Errorf("capture off: %+v", got)
	}
}

func TestIsActivityStop(t *testing.T) {
	if !IsActivityStop("System.Diagnostics.DiagnosticSource", "System.Diagnostics.Activity.Stop") ||
		IsActivityStop("Shop", "System.Diagnostics.Activity.Stop") ||
		IsActivityStop("System.Diagnostics.DiagnosticSource", "System.Diagnostics.Activity.Start") {
		t.Error("ActivityStop told the wrong method")
	}
}
