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
		{"Acme.*", "Acme.Shop.Cart.Add", true},
		{"Acme.*", "AcmeX.Shop", false},
		{"*.Get*", "Acme.Shop.Repo.GetItem", true},
		{"*.Get*", "Acme.Shop.Repo.Find", false},
		{"Acme.Shop.Cart.Put", "Acme.Shop.Cart.Put", true},
		{"Acme.Shop.Cart.Put", "Acme.Shop.Cart.PutAll", false},
		{"Acme.Shop.Cart.?dd", "Acme.Shop.Cart.Add", true},
		{"Acme.Shop.Cart.?dd", "Acme.Shop.Cart.dd", false},
		{"", "", true},
		{"", "x", false},
		{"**", "", true},
		{"a*b*c", "aXXbYYc", true},
		{"a*b*c", "aXXbYY", false},
		{"System.*", "SystemX", false},
		{"acme.*", "Acme.Shop", false}, // case-sensitive
	}
	for _, tt := range tests {
		if got := Match(tt.pattern, tt.name); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}

func TestMatchNoExponentialBacktracking(t *testing.T) {
	name := strings.Repeat("a", 5000)
	start := time.Now()
	if Match("*a*a*a*a*a*a*b", name) {
		t.Fatal("matched")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %v", d)
	}
}

func TestPatterns(t *testing.T) {
	p := ParsePatterns(" Acme.*, ,*.Get* ,")
	if len(p) != 2 || p[0] != "Acme.*" || p[1] != "*.Get*" {
		t.Fatalf("%q", p)
	}
	if !p.MatchAny("X.GetY") || p.MatchAny("X.Find") {
		t.Error("MatchAny")
	}
	if (Patterns{}).MatchAny("x") {
		t.Error("empty list matched")
	}
}
