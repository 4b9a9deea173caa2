package naming

import "testing"

func TestNestedGenericName(t *testing.T) {
	tests := []struct {
		names   []string
		arities []int
		args    []string
		want    string
		ok      bool
	}{
		{[]string{"Acme.Cage", "Door"}, []int{1, 0}, []string{"Cat"}, "Acme.Cage<Cat>.Door", true},
		{[]string{"Acme.Cage", "Door"}, []int{1, 1}, []string{"Cat", "Int32"}, "Acme.Cage<Cat>.Door<Int32>", true},
		{[]string{"Acme.Outer", "Inner"}, []int{0, 2}, []string{"A", "B"}, "", false}, // all on the innermost: the usual form
		{[]string{"Acme.Cage", "Door"}, []int{2, 0}, []string{"Cat"}, "", false},      // does not add up
		{[]string{"Acme.Cage"}, []int{1}, []string{"Cat"}, "", false},
	}
	for _, tt := range tests {
		got, ok := NestedGenericName(tt.names, tt.arities, tt.args)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%v %v %v: %q %v, want %q %v", tt.names, tt.arities, tt.args, got, ok, tt.want, tt.ok)
		}
	}
	if n, a := splitArity("Cage`1"); n != "Cage" || a != 1 {
		t.Errorf("splitArity: %q %d", n, a)
	}
}
