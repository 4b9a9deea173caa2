package difftest

import (
	"strings"
	"testing"
)

func TestVary(t *testing.T) {
	allowed := map[string]bool{}
	for _, s := range settings {
		for _, v := range s.values {
			allowed[s.name+"="+v] = true
		}
	}
	changed := 0
	for seed := int64(1); seed <= 50; seed++ {
		a, b := Vary(seed), Vary(seed)
		if strings.Join(a, " ") != strings.Join(b, " ") {
			t.Fatalf("seed %d: %v then %v", seed, a, b)
		}
		for _, kv := range a {
			if !allowed[kv] {
				t.Fatalf("seed %d: %s is not a listed value", seed, kv)
			}
		}
		changed += len(a)
	}
	if changed < 50*len(settings)/4 {
		t.Fatalf("only %d settings changed over 50 seeds", changed)
	}
}

func TestParseAccount(t *testing.T) {
	for _, tt := range []struct {
		log  string
		want Account
	}{
		{"clrotel: shut down: 9 records drained; 7 spans exported, 1 failed, 0 lost at exit; 2 calls dropped; 0 traces not sampled", Account{7, 1, 0, 2, 0}},
		{"shut down: 9 records drained; 7 spans exported, 0 failed, 0 lost at exit; 0 calls dropped; 12 calls folded; 0 traces", Account{7, 0, 0, 0, 12}},
	} {
		got, ok := ParseAccount(tt.log)
		if !ok || got != tt.want {
			t.Errorf("ParseAccount(%q) = %+v, %v; want %+v", tt.log, got, ok, tt.want)
		}
	}
	if _, ok := ParseAccount("no line"); ok {
		t.Error("found an account in a log without one")
	}
}
