package naming

import (
	"strings"
	"testing"
	"time"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"*", "Acme.Shop.Cart.Add", true},
		{"*", "", true},
		{"**", "", true},
		{"Acme.*", "Acme.Shop.Cart.Add", true},
		{"Acme.*", "Acme.", true},
		{"Acme.*", "Acme", false},
		{"Acme.*", "AcmeX.Shop", false},
		{"*.Get*", "Acme.Shop.Repo.GetItem", true},
		{"*.Get*", "Acme.Shop.Repo.Get", true},
		{"*.Get*", "Acme.Shop.Repo.Find", false},
		{"*.Get*", "GetItem", false},
		{"*Repo*", "Acme.Shop.Repo.Find", true},
		{"Acme.Shop.Cart.Put", "Acme.Shop.Cart.Put", true},
		{"Acme.Shop.Cart.Put", "Acme.Shop.Cart.PutAll", false},
		{"Acme.Shop.Cart.Put", "Acme.Shop.Cart.Pu", false},
		{"Acme.Shop.Cart.?dd", "Acme.Shop.Cart.Add", true},
		{"Acme.Shop.Cart.?dd", "Acme.Shop.Cart.dd", false},
		{"?", "A", true},
		{"?", "", false},
		{"?", "AB", false},
		{"??", "AB", true},
		{"?*", "", false},
		{"*?", "A", true},
		{"", "", true},
		{"", "x", false},
		{"a*b*c", "aXXbYYc", true},
		{"a*b*c", "aXXbYY", false},
		{"a*b*c", "abcbc", true},
		{"*ab", "aab", true},
		{"*aab", "aaab", true},
		{"a*a", "a", false},
		{"System.*", "SystemX", false},
		{"acme.*", "Acme.Shop", false}, // case-sensitive
		{"*", "**x", true},             // '*' in a name is an ordinary character
		{"*x", "**x", true},
		{"a?c", "aéc", true}, // '?' is one character, not one byte
		{"a??c", "aéc", false},
		{"*é", "aaé", true},
		{"Acme.Ü*", "Acme.Übung.Run", true},
	}
	for _, tt := range tests {
		if got := Match(tt.pattern, tt.name); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}

func TestMatchNoExponentialBacktracking(t *testing.T) {
	name := strings.Repeat("a", 10000)
	start := time.Now()
	for _, p := range []string{"*a*a*a*a*b", "*a*a*a*a*a*a*a*a*a*a*a*a*b", strings.Repeat("a*", 50) + "b", "*" + strings.Repeat("?", 100) + "b"} {
		if Match(p, name) {
			t.Errorf("%q matched", p)
		}
	}
	if !Match("*a*a*a*a*a", name) {
		t.Error("no match")
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("took %v", d)
	}
}

func TestParsePatterns(t *testing.T) {
	tests := []struct {
		csv  string
		want Patterns
	}{
		{"", nil},
		{" , ,", nil},
		{"Acme.*", Patterns{"Acme.*"}},
		{" Acme.*, ,*.Get* ,", Patterns{"Acme.*", "*.Get*"}},
		{"a,b\t,\tc", Patterns{"a", "b", "c"}},
	}
	for _, tt := range tests {
		got := ParsePatterns(tt.csv)
		if len(got) != len(tt.want) {
			t.Errorf("ParsePatterns(%q) = %q, want %q", tt.csv, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("ParsePatterns(%q) = %q, want %q", tt.csv, got, tt.want)
			}
		}
	}
}

func TestMatchAny(t *testing.T) {
	p := ParsePatterns("Acme.*, *.Get*")
	for name, want := range map[string]bool{
		"Acme.Shop.Cart.Add": true, "X.GetY": true, "X.Find": false, "": false,
	} {
		if got := p.MatchAny(name); got != want {
			t.Errorf("MatchAny(%q) = %v, want %v", name, got, want)
		}
	}
	if (Patterns{}).MatchAny("x") || Patterns(nil).MatchAny("") {
		t.Error("empty list matched")
	}
}
