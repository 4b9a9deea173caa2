package difftest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/otlpsink"
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
		{"clrotel: shut down: 9 records drained; 7 spans exported, 1 failed, 0 lost at exit; 2 calls dropped; 0 traces not sampled", Account{7, 1, 0, 2, 0, 0}},
		{"shut down: 9 records drained; 7 spans exported, 0 failed, 0 lost at exit; 0 calls dropped; 12 calls folded; 0 traces", Account{7, 0, 0, 0, 12, 0}},
		{"shut down: 9 records drained; 7 spans exported, 0 failed, 0 lost at exit; 0 calls dropped; 12 calls folded; 30 calls shed (4 traces); 0 traces not sampled, 0 rate-limited",
			Account{7, 0, 0, 0, 12, 30}},
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

func TestCheckValues(t *testing.T) {
	out := "x\n@arg Take12 a1 L -5\n@arg Take12 a2 D 3ff4000000000000\n@arg Take12 s1 S 00680069\n@arg Take12 s2 N -\n" +
		"@arg Take12 c1 C 233\n@arg Take12 u1 U 18446744073709551615\n@arg Take12 b1 B true\n@arg Gen13 g L 7\n"
	good := map[string]any{
		"dotnet.arg.a1": int64(-5), "dotnet.arg.a2": 1.25, "dotnet.arg.s1": "hi", "dotnet.arg.s2": "null", "dotnet.arg.s2.null": true,
		"dotnet.arg.c1": "é", "dotnet.arg.u1": "18446744073709551615", "dotnet.arg.b1": true,
	}
	spans := []otlpsink.Span{
		{Name: "Gen.exe!Gen.S1.U.Take12(Int32 a1, Double a2, String s1, String s2, Char c1, UInt64 u1, Boolean b1)", Attrs: good},
		{Name: "Gen.exe!Gen.S1.U.Gen13<System.Collections.Generic.List<Int32>>(Int32 g)", Attrs: map[string]any{"dotnet.arg.g": int64(7)}},
		// A lambda of Take12, named as written: not Take12's span.
		{Name: "Gen.exe!Gen.S1.U.Take12()::lambda#1(Int32 x)", Attrs: map[string]any{"dotnet.arg.x": int64(1)}},
	}
	if bad := checkValues(out, spans); len(bad) != 0 {
		t.Fatalf("matching values reported: %v", bad)
	}
	for k, v := range map[string]any{"dotnet.arg.a1": int64(5), "dotnet.arg.a2": 1.5, "dotnet.arg.s1": "ho", "dotnet.arg.s2": "",
		"dotnet.arg.c1": "e", "dotnet.arg.u1": int64(-1), "dotnet.arg.b1": false} {
		attrs := map[string]any{}
		for k2, v2 := range good {
			attrs[k2] = v2
		}
		attrs[k] = v
		spans[0].Attrs = attrs
		if bad := checkValues(out, spans); len(bad) != 1 {
			t.Errorf("%s = %v: reported %v, want one difference", k, v, bad)
		}
	}
}

func TestWithoutLimits(t *testing.T) {
	for _, tt := range []struct {
		env     []string
		free    string
		limited bool
	}{
		{nil, "", false},
		{[]string{"CLROTEL_FOLD=off"}, "CLROTEL_FOLD=off", false},
		{[]string{"CLROTEL_MAX_THREADS=2", "CLROTEL_FOLD=off", "CLROTEL_MAX_DEPTH=16"}, "CLROTEL_FOLD=off", true},
		{[]string{"CLROTEL_MAX_DEPTH=64"}, "", true},
	} {
		free, limited := withoutLimits(tt.env)
		if strings.Join(free, " ") != tt.free || limited != tt.limited {
			t.Errorf("withoutLimits(%v) = %v, %v; want %q, %v", tt.env, free, limited, tt.free, tt.limited)
		}
	}
}

func TestSameSum(t *testing.T) {
	line := func(exported, dropped int) string {
		return fmt.Sprintf("clrotel: shut down: 1 records drained; %d spans exported, 0 failed, 0 lost at exit; %d calls dropped; 0 calls folded; 0 calls shed (0 traces)", exported, dropped)
	}
	for _, tt := range []struct {
		name          string
		limited, free Run
		ok            bool
	}{
		{"dropped past a limit, counted", Run{Stderr: line(90, 10)}, Run{Stderr: line(100, 0)}, true},
		{"a call lost", Run{Stderr: line(90, 9)}, Run{Stderr: line(100, 0)}, false},
		{"a call made up", Run{Stderr: line(91, 10)}, Run{Stderr: line(100, 0)}, false},
		{"re-JIT without hooks: not compared", Run{Stderr: line(90, 9) + "\nclrotel: 3 folded methods re-JIT-compiled without hooks"}, Run{Stderr: line(100, 0)}, true},
		{"timed out: not compared", Run{Stderr: line(90, 9), TimedOut: true}, Run{Stderr: line(100, 0)}, true},
	} {
		if _, ok := sameSum(tt.limited, tt.free); ok != tt.ok {
			t.Errorf("%s: sameSum ok = %v, want %v", tt.name, ok, tt.ok)
		}
	}
}

func TestLeavesUnsampled(t *testing.T) {
	for _, tt := range []struct {
		env  []string
		want bool
	}{
		{nil, false},
		{[]string{"CLROTEL_MAX_THREADS=1"}, false},
		{[]string{"OTEL_TRACES_SAMPLER=always_off"}, true},
		{[]string{"CLROTEL_SAMPLING_RULES=*.Main=never"}, true},
		{[]string{"CLROTEL_SAMPLING_RULES="}, false},
		{[]string{"OTEL_TRACES_SAMPLER=parentbased_always_on"}, false},
	} {
		if got := leavesUnsampled(tt.env); got != tt.want {
			t.Errorf("leavesUnsampled(%q) = %v, want %v", tt.env, got, tt.want)
		}
	}
	// Every value Vary picks that leaves traces unsampled is seen as such.
	for _, s := range settings {
		for _, v := range s.values[1:] {
			kv := s.name + "=" + v
			if strings.Contains(kv, "never") || strings.HasSuffix(kv, "always_off") {
				if !leavesUnsampled([]string{kv}) {
					t.Errorf("%s leaves traces unsampled, but leavesUnsampled says not", kv)
				}
			}
		}
	}
}
