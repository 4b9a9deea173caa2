package config

import (
	"path/filepath"
	"strings"
)

// AppName names the service after the app when OTEL_SERVICE_NAME is not
// set, from the process's command line as /proc/self/cmdline holds it
// (arguments ending in NUL): "dotnet Shop.dll" is "Shop", an apphost
// "/srv/shop/Shop" is "Shop"; "" for an empty command line.
func AppName(cmdline []byte) string {
	args := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
	for _, a := range args {
		ext := strings.ToLower(filepath.Ext(a))
		if ext == ".dll" || ext == ".exe" {
			return strings.TrimSuffix(filepath.Base(a), filepath.Ext(a))
		}
	}
	if len(args) > 0 && args[0] != "" {
		return filepath.Base(args[0])
	}
	return ""
}
