package main

import (
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// attachFlags are the flags env and run share.
type attachFlags struct {
	endpoint string
	service  string
	config   string
	lib      string
}

func (a *attachFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.endpoint, "endpoint", "", "OTLP/gRPC endpoint URL, e.g. http://127.0.0.1:4317")
	fs.StringVar(&a.service, "service", "", "service name (OTEL_SERVICE_NAME)")
	fs.StringVar(&a.config, "config", "", "clrotel configuration file (CLROTEL_CONFIG)")
	fs.StringVar(&a.lib, "lib", "", "path of libclrotel.so (default: next to the clrotel binary)")
}

// validate checks the flags and makes paths absolute.
func (a *attachFlags) validate() error {
	if a.endpoint != "" {
		u, err := url.Parse(a.endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--endpoint %q: want a URL like http://host:4317 (scheme http or https)", a.endpoint)
		}
	}
	if a.lib == "" {
		exe, err := os.Executable()
		if err == nil {
			if resolved, err := filepath.EvalSymlinks(exe); err == nil {
				exe = resolved
			}
			a.lib = filepath.Join(filepath.Dir(exe), "libclrotel.so")
		}
	}
	for _, p := range []*string{&a.lib, &a.config} {
		if *p != "" {
			if abs, err := filepath.Abs(*p); err == nil {
				*p = abs
			}
		}
	}
	return nil
}

// vars returns the environment that attaches the profiler, in print order.
func (a *attachFlags) vars() [][2]string {
	v := [][2]string{
		{"CORECLR_ENABLE_PROFILING", "1"},
		{"CORECLR_PROFILER", clsid},
		{"CORECLR_PROFILER_PATH", a.lib},
		// .NET 8+: keeps profilers working where DOTNET_EnableDiagnostics=0.
		{"DOTNET_EnableDiagnostics_Profiler", "1"},
		{"OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"},
	}
	if a.endpoint != "" {
		v = append(v, [2]string{"OTEL_EXPORTER_OTLP_ENDPOINT", a.endpoint})
	}
	if a.service != "" {
		v = append(v, [2]string{"OTEL_SERVICE_NAME", a.service})
	}
	if a.config != "" {
		v = append(v, [2]string{"CLROTEL_CONFIG", a.config})
	}
	return v
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func runEnv(args []string, stdout, stderr io.Writer) (int, error) {
	var a attachFlags
	fs := flag.NewFlagSet("env", flag.ContinueOnError)
	fs.SetOutput(stderr)
	a.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, `Usage: clrotel env [flags]

Prints the export lines that attach the profiler to any .NET process
started from the same shell:

  eval "$(clrotel env --endpoint http://127.0.0.1:4317 --service shop)"
  dotnet Shop.dll

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2, errUsageOr(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "clrotel env: unexpected argument %q\n", fs.Arg(0))
		return 2, errUsage
	}
	if err := a.validate(); err != nil {
		fmt.Fprintf(stderr, "clrotel env: %v\n", err)
		return 2, errUsage
	}
	if _, err := os.Stat(a.lib); err != nil {
		fmt.Fprintf(stderr, "clrotel env: warning: %s not found (build it with `make build`, or pass --lib)\n", a.lib)
	}
	for _, kv := range a.vars() {
		fmt.Fprintf(stdout, "export %s=%s\n", kv[0], shellQuote(kv[1]))
	}
	return 0, nil
}
