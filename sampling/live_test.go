package sampling

import (
	"reflect"
	"testing"
)

func TestLiveBlock(t *testing.T) {
	cart := MethodNames{Select: "Acme.Shop.Cart.Add", Span: "Shop.dll!Acme.Shop.Cart.Add(Int32 n)", Function: "Acme.Shop.Cart.Add"}
	other := MethodNames{Select: "Acme.Shop.Other.Run", Span: "Shop.dll!Acme.Shop.Other.Run()", Function: "Acme.Shop.Other.Run"}
	remote := Default()
	remote.Sampler, remote.Remote.InitialRate = ParentBasedJaegerRemote, 0.5
	limited := remote
	limited.RateLimit, limited.Burst = 10, 5
	var l Live
	l.Reload(remote)
	// The initial rate until the endpoint answers; parent-based.
	want := HookBlock{Gen: 1, Methods: []HookMethod{{Bound: 1 << 62}, {Bound: 1 << 62}}, ParentBased: true}
	if got := l.Block([]MethodNames{cart, other}); !reflect.DeepEqual(got, want) {
		t.Errorf("initial block %+v, want %+v", got, want)
	}
	// The endpoint's per-operation answer, with a guaranteed rate.
	l.Strategy = &Strategy{Probability: 0.25, LowerBound: 1, Operations: map[string]float64{cart.Span: 0}}
	want = HookBlock{Gen: 2, ParentBased: true, Methods: []HookMethod{{Bound: 0, LowerBound: HookLimiter{Interval: 1e9}},
		{Bound: 1 << 61, LowerBound: HookLimiter{Interval: 1e9}}}}
	if got := l.Block([]MethodNames{cart, other}); !reflect.DeepEqual(got, want) {
		t.Errorf("per-operation block %+v, want %+v", got, want)
	}
	if got := l.Setting(cart); got != (MethodSetting{Bound: 0, LowerBound: 1}) {
		t.Errorf("Setting(cart) = %+v", got)
	}
	// A reload at the same endpoint keeps the strategy; the rate limit
	// comes with it.
	l.Reload(limited)
	if l.Strategy == nil {
		t.Fatal("reload at the same endpoint dropped the strategy")
	}
	l.Strategy = &Strategy{MaxTracesPerSecond: 4}
	want = HookBlock{Gen: 3, ParentBased: true, Methods: []HookMethod{{Bound: AlwaysBound}},
		Strategy: HookLimiter{2.5e8, 3 * 2.5e8}, Rate: HookLimiter{1e8, 4e8}}
	if got := l.Block([]MethodNames{cart}); !reflect.DeepEqual(got, want) {
		t.Errorf("rate-limited block %+v, want %+v", got, want)
	}
	// Another endpoint: its strategy is not known yet.
	moved := limited
	moved.Remote.Endpoint = "http://agent:5778"
	l.Reload(moved)
	if l.Strategy != nil || l.Config.Remote.Endpoint != "http://agent:5778" {
		t.Errorf("reload at another endpoint: strategy %+v, endpoint %q", l.Strategy, l.Config.Remote.Endpoint)
	}
	// Not parent-based, no functions yet.
	l.Reload(Config{Sampler: AlwaysOn, Ratio: 1})
	if got := l.Block(nil); got.Gen != 4 || got.ParentBased || len(got.Methods) != 0 {
		t.Errorf("always_on block %+v", got)
	}
}
