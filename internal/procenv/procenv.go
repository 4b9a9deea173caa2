package procenv

import (
	"os"
	"strings"
)

// Clean returns os.Environ() without CORECLR_, OTEL_, CLROTEL_, DOTNET_ and
// COMPlus_ variables.
func Clean() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "CORECLR_"), strings.HasPrefix(k, "OTEL_"), strings.HasPrefix(k, "CLROTEL_"),
			strings.HasPrefix(k, "DOTNET_"), strings.HasPrefix(k, "COMPlus_"):
			continue
		}
		env = append(env, kv)
	}
	return env
}
