package naming

import "testing"

func TestAsWritten(t *testing.T) {
	tests := []struct {
		typeName, owner, method string
		want                    string // "" when not explained
	}{
		{"Acme.Shop.Program.<>c", "<>c", "<Main>b__0_0", "Acme.Shop.Program.Main()::lambda#1"},
		{"Acme.Shop.Program.<>c__DisplayClass0_0", "<>c__DisplayClass0_0", "<Main>b__1", "Acme.Shop.Program.Main()::lambda#2"},
		{"Acme.Shop.Program", "Program", "<Main>g__Retry|0_0", "Acme.Shop.Program.Main()::Retry"},
		{"Acme.Shop.Program", "Program", "<Main>m__0", "Acme.Shop.Program.Main()::lambda#1"},
		{"Acme.Shop.Program.<Main>c__AnonStorey0", "<Main>c__AnonStorey0", "<>m__2", "Acme.Shop.Program.Main()::lambda#3"},
		{"Acme.Repo<Acme.Order>.<Save>c__AnonStorey1", "<Save>c__AnonStorey1", "<>m__0", "Acme.Repo<Acme.Order>.Save()::lambda#1"},
		{"Acme.Shop.Cart.<>c__DisplayClass3_0", "<>c__DisplayClass3_0", "<.ctor>b__0", "Acme.Shop.Cart..ctor()::lambda#1"},
		{"Acme.Shop.Program.<>c", "<>c", "<Main>b__0_x", ""},
		{"Acme.Shop.Program", "Program", "<Main>d__0", ""},
		{"Acme.Shop.Program", "Program", "Main", ""},
		{"Acme.Shop.Program.<>c", "<>c", "<>b__0", ""},
		{"Acme.Shop.Program.Storey", "Storey", "<>m__0", ""},
		{"Acme.Shop.Program", "Program", "<Main>g__|0_0", ""},
		{"Acme.Shop.Program", "Program", "<Main>b__1234567", ""},
	}
	for _, tc := range tests {
		got, ok := AsWritten(tc.typeName, tc.owner, tc.method)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("AsWritten(%q, %q, %q) = %q, %v; want %q", tc.typeName, tc.owner, tc.method, got, ok, tc.want)
		}
	}
}
