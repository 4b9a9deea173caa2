package otelbridge

import "testing"

// A compiler-generated method's span is named as the user wrote it, with
// the compiled name in an attribute; other methods have no such attribute.
func TestNewMethodCompiledName(t *testing.T) {
	for _, tc := range []struct {
		mi       MethodInfo
		compiled string
	}{
		{MethodInfo{Module: "Shop.exe", FunctionName: "Acme.Shop.Program.Main()::lambda#1", Params: "Object state",
			CompiledName: "Acme.Shop.Program.<>c.<Main>b__0_0"}, "Acme.Shop.Program.<>c.<Main>b__0_0"},
		{MethodInfo{Module: "Shop.exe", FunctionName: "Acme.Shop.Program.Main", Params: "String[] args"}, ""},
	} {
		m := NewMethod(tc.mi)
		if want := tc.mi.Module + "!" + tc.mi.FunctionName + "(" + tc.mi.Params + ")"; m.SpanName != want {
			t.Errorf("span name %q, want %q", m.SpanName, want)
		}
		got := ""
		for _, a := range m.Attrs {
			if a.Key == KeyCompiledName {
				got = a.Value.AsString()
			}
		}
		if got != tc.compiled {
			t.Errorf("%s: %s = %q, want %q", tc.mi.FunctionName, KeyCompiledName, got, tc.compiled)
		}
	}
}
