package config

import "testing"

func TestAppName(t *testing.T) {
	for _, tc := range []struct{ cmdline, want string }{
		{"dotnet\x00Shop.dll\x00", "Shop"},
		{"/usr/bin/dotnet\x00exec\x00/srv/bin/Acme.Shop.DLL\x00--port\x005000\x00", "Acme.Shop"},
		{"mono\x00Tool.exe\x00", "Tool"},
		{"/srv/shop/Shop\x00--urls\x00http://+:80\x00", "Shop"}, // an apphost
		{"dotnet\x00run\x00", "dotnet"},
		{"", ""},
		{"\x00", ""},
	} {
		if got := AppName([]byte(tc.cmdline)); got != tc.want {
			t.Errorf("AppName(%q) = %q; want %q", tc.cmdline, got, tc.want)
		}
	}
}
