package cstartup

import (
	"testing"

	"github.com/clrotel/clrotel/config"
	"github.com/clrotel/clrotel/scope"
)

// The scope C reads from CLROTEL_INCLUDE before Go starts answers every
// module as the scope Go derives (profiler/startup.go configureScope) does.
func TestScopeFromIncludeAgreesWithGo(t *testing.T) {
	str := func(s string) *string { return &s }
	app := []Type{{Name: "Acme.Shop.Cart"}, {Name: "Acme.Shop.Repo`1"}, {Name: "Line", Nested: true}, {Name: "Program"}}
	corelib := []Type{{Name: "System.Collections.Generic.List`1"}, {Name: "Microsoft.Win32.Registry"}, {Name: "Internal.Console"},
		{Name: "Interop"}, {Name: "FxResources.System.Private.CoreLib.SR"}, {Name: "<PrivateImplementationDetails>"}}
	// Every name package scope's frameworkRoots lists, and one more.
	prims := []string{"Void", "Boolean", "Char", "SByte", "Byte", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64",
		"Single", "Double", "String", "IntPtr", "UIntPtr", "Object", "TypedReference", "Decimal"}
	var includes []*string
	for _, p := range prims {
		corelib = append(corelib, Type{Name: "System." + p})
		includes = append(includes, str(p+".Parse"))
	}
	for _, r := range []string{"System.Linq.*", "Microsoft.Win32.*", "Internal.*", "Interop.Sys.*", "FxResources.*", "<Private*"} {
		includes = append(includes, str(r))
	}
	modules := []struct {
		asm   string
		types []Type
	}{
		{"Shop", app}, {"System.Private.CoreLib", corelib}, {"System.Linq", []Type{{Name: "System.Linq.Enumerable"}}},
		{"Systematic", []Type{{Name: "Systematic.Core"}}}, {"Hello", []Type{{Name: "Hello"}}},
		{"Odd", []Type{{Name: "<Module>"}, {Name: "Int32Ext"}}},
	}
	for _, include := range append(includes,
		nil, str(""), str(" , ,"), str("Nothing.Selected"), str("Acme.Shop.*"), str(" Acme.Shop.Cart.Add , Acme.*"),
		str("Acme.Sh"), str("*.Add"), str("Acme.*,?cme.X"), str("System.Linq.Enumerable.Where*"), str("Int32.Parse"),
		str("Hello.Main"), str("Acme.Shop.*,Acme.Shop.Cart.*"), str("<Module>.Init"), str("Sys*"), str("\tAcme.Shop.Cart\n"),
	) {
		name := "unset"
		if include != nil {
			name = *include
		}
		var patterns []string
		if include != nil {
			patterns = config.SplitPatterns(*include)
		}
		for _, m := range modules {
			ScopeFromInclude(include)
			fromC, _ := InScope(m.asm, m.types)
			if len(patterns) == 0 {
				Scope(true, false, nil)
			} else {
				prefixes, everywhere := scope.Prefixes(patterns)
				if everywhere {
					prefixes = []string{""}
				}
				Scope(false, scope.ReachesFramework(prefixes, everywhere), prefixes)
			}
			fromGo, _ := InScope(m.asm, m.types)
			if fromC != fromGo {
				t.Errorf("CLROTEL_INCLUDE=%q, module %s: in scope %v from C, %v from Go", name, m.asm, fromC, fromGo)
			}
		}
	}
}

// What Initialize reads from the environment without Go agrees with
// package config: the ReJIT bit (folding and its re-JIT both on), async.
// A configuration file, or a value Go would trim differently, makes it
// wait for Go.
func TestLazyEnvAgreesWithConfig(t *testing.T) {
	for _, env := range []map[string]string{
		{},
		{"CLROTEL_FOLD": "off"}, {"CLROTEL_FOLD": " NO "}, {"CLROTEL_FOLD": "0"}, {"CLROTEL_FOLD": "false"},
		{"CLROTEL_FOLD": "on"}, {"CLROTEL_FOLD": ""}, {"CLROTEL_FOLD": "maybe"}, {"CLROTEL_FOLD": "offf"},
		{"CLROTEL_FOLD_REJIT": "Off"}, {"CLROTEL_FOLD_REJIT": "yes"}, {"CLROTEL_FOLD_REJIT": "\toff\n"},
		{"CLROTEL_FOLD": "on", "CLROTEL_FOLD_REJIT": "off"}, {"CLROTEL_FOLD": "off", "CLROTEL_FOLD_REJIT": "on"},
		{"CLROTEL_ASYNC": "off"}, {"CLROTEL_ASYNC": "1"}, {"CLROTEL_ASYNC": "FALSE"}, {"CLROTEL_ASYNC": "n"},
		{"CLROTEL_INCLUDE": "Acme.*"}, {"CLROTEL_INCLUDE": ""},
	} {
		got := ReadLazyEnv(env)
		cfg, _ := config.FromEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
		_, hasInclude := env["CLROTEL_INCLUDE"]
		want := LazyEnv{CanWait: true, ReJIT: cfg.Fold.Enabled && cfg.Fold.ReJIT.Enabled, Async: cfg.Async, HasInclude: hasInclude}
		if got != want {
			t.Errorf("%v: %+v from C, %+v from config", env, got, want)
		}
	}
	for _, env := range []map[string]string{
		{"CLROTEL_CONFIG": "/etc/clrotel.yaml"},
		{"CLROTEL_FOLD": "off\u00a0"}, // Go trims U+00A0
		{"CLROTEL_INCLUDE": "Caf\u00e9.*"},
	} {
		if got := ReadLazyEnv(env); got.CanWait {
			t.Errorf("%v: Initialize does not wait for Go, want it to", env)
		}
	}
	for _, blank := range []string{"", "  "} {
		if got := ReadLazyEnv(map[string]string{"CLROTEL_CONFIG": blank}); !got.CanWait {
			t.Errorf("CLROTEL_CONFIG=%q (no file): Initialize waits for Go, want it not to", blank)
		}
	}
}

// OTEL_SDK_DISABLED is true only for "true", in any case, trimmed, as the
// OpenTelemetry specification's booleans are.
func TestEnvTrue(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{
		{"true", true}, {"TRUE", true}, {" True\t", true},
		{"", false}, {"1", false}, {"yes", false}, {"on", false}, {"false", false}, {"truex", false}, {"tru", false},
	} {
		if got := EnvTrue(tc.v); got != tc.want {
			t.Errorf("EnvTrue(%q) = %v, want %v", tc.v, got, tc.want)
		}
	}
}
