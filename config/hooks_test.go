package config

import (
	"testing"
	"time"
)

func TestHooks(t *testing.T) {
	base := Default()
	base.MaxThreads, base.RingBytes, base.BurstBytes, base.MaxDepth = 64, 64<<10, 1<<20, 300
	base.MaxSpansPerTrace, base.MaxValueSpansPerTrace = 5000, 700
	base.Capture, base.ValueBytes, base.MaxString, base.MaxElements, base.ValueDepth, base.MaxFields = true, 1024, 256, 8, 3, 16
	base.Serving.After, base.Serving.Children = 2*time.Second, 1000
	base.Fold.Enabled, base.Fold.MinCalls, base.Fold.MaxDuration, base.Fold.ReJIT.Enabled = true, 250, 20*time.Microsecond, false
	limits := ValueLimits{MaxBytes: 1024, MaxChars: 256, MaxElems: 8, MaxDepth: 3, MaxFields: 16}
	want := Hooks{MaxThreads: 64, RingSize: 1 << 20, RingSoft: 64 << 10, StackCap: 300, ValueBytes: 1024,
		MaxTraceSpans: 5000, MaxValueSpans: 700, FoldMinCalls: 250, FoldMaxNs: 20000,
		ServingAfterNs: 2e9, ServingChildren: 1000, Values: limits, PlanTableSize: 1 << 16}
	for _, c := range []struct {
		name         string
		edit         func(*Config)
		stringLayout bool
		edit2        func(*Hooks)
	}{
		{"as configured", func(*Config) {}, true, func(*Hooks) {}},
		{"no burst space: the ring is its resident part", func(c *Config) { c.BurstBytes = 0 }, true, func(h *Hooks) { h.RingSize = 64 << 10 }},
		{"capture off: no value bytes, the limits stay", func(c *Config) { c.Capture = false }, true, func(h *Hooks) { h.ValueBytes = 0 }},
		{"no string layout: no value bytes", func(*Config) {}, false, func(h *Hooks) { h.ValueBytes = 0 }},
		{"folding off: its duration stays, no re-JIT", func(c *Config) { c.Fold.Enabled, c.Fold.ReJIT.Enabled = false, true }, true,
			func(h *Hooks) { h.FoldMinCalls = 0 }},
		{"re-JIT", func(c *Config) { c.Fold.ReJIT.Enabled = true }, true, func(h *Hooks) { h.ReJIT = true }},
		{"serving off", func(c *Config) { c.Serving.After, c.Serving.Children = 0, 0 }, true,
			func(h *Hooks) { h.ServingAfterNs, h.ServingChildren = 0, 0 }},
	} {
		cfg, w := base, want
		c.edit(&cfg)
		c.edit2(&w)
		if got := cfg.Hooks(c.stringLayout); got != w {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, w)
		}
	}
}
