package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// libName is the profiler library's file name.
const libName = "libclrotel.so"

// attachFlags say how to attach the profiler; env and run share them.
type attachFlags struct {
	endpoint string
	service  string
	config   string
	lib      string
}

func (a *attachFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.endpoint, "endpoint", "", "OTLP/gRPC `URL` to export spans to, e.g. http://127.0.0.1:4317 (OTEL_EXPORTER_OTLP_ENDPOINT)")
	fs.StringVar(&a.service, "service", "", "service `name` of the traced process (OTEL_SERVICE_NAME)")
	fs.StringVar(&a.config, "config", "", "clrotel configuration `file` (CLROTEL_CONFIG)")
	fs.StringVar(&a.lib, "lib", "", "`path` of "+libName+" (default: beside the clrotel executable)")
}

// check validates the flags that can be wrong on the command line.
func (a *attachFlags) check() error {
	if a.endpoint != "" {
		return checkEndpoint(a.endpoint)
	}
	return nil
}

// checkEndpoint accepts an http or https URL with a host, the form
// OTEL_EXPORTER_OTLP_ENDPOINT takes.
func checkEndpoint(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return fmt.Errorf("invalid --endpoint %q: %v (want a URL like http://127.0.0.1:4317)", s, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("invalid --endpoint %q: the scheme must be http or https, as in http://127.0.0.1:4317", s)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("invalid --endpoint %q: no host, want a URL like http://127.0.0.1:4317", s)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("invalid --endpoint %q: port %s is out of range", s, p)
		}
	}
	return nil
}

// resolve makes the paths absolute, defaulting --lib to libclrotel.so
// beside the executable that exe names (os.Executable).
func (a *attachFlags) resolve(exe func() (string, error)) error {
	if a.lib == "" {
		path, err := exe()
		if err != nil {
			return fmt.Errorf("locating %s beside clrotel: %w (pass --lib)", libName, err)
		}
		if a.lib, err = libBeside(path); err != nil {
			return fmt.Errorf("locating %s beside clrotel: %w (pass --lib)", libName, err)
		}
	}
	for _, p := range []*string{&a.lib, &a.config} {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return fmt.Errorf("resolving %s: %w", *p, err)
		}
		*p = abs
	}
	return nil
}

// libBeside returns the path of libclrotel.so in the directory of the
// executable exe, symbolic links resolved.
func libBeside(exe string) (string, error) {
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(real), libName), nil
}

// envVar is one variable to set, with an optional comment line above it.
type envVar struct {
	name, value string
	comment     string
}

// vars returns the variables that attach the profiler, in print order.
func (a *attachFlags) vars() []envVar {
	v := []envVar{
		// CoreCLR reads the CORECLR_ names on every version (.NET 11 also
		// reads DOTNET_ENABLE_PROFILING and friends).
		{name: "CORECLR_ENABLE_PROFILING", value: "1"},
		{name: "CORECLR_PROFILER", value: clsid},
		{name: "CORECLR_PROFILER_PATH", value: a.lib},
		{
			name: "DOTNET_EnableDiagnostics_Profiler", value: "1",
			comment: ".NET 8+: undoes an inherited DOTNET_EnableDiagnostics_Profiler=0 (DOTNET_EnableDiagnostics=0 still turns profiling off)",
		},
	}
	if a.service != "" {
		v = append(v, envVar{name: "OTEL_SERVICE_NAME", value: a.service})
	}
	if a.endpoint != "" {
		v = append(v, envVar{name: "OTEL_EXPORTER_OTLP_ENDPOINT", value: a.endpoint})
	}
	v = append(v, envVar{name: "OTEL_EXPORTER_OTLP_PROTOCOL", value: "grpc"})
	if a.config != "" {
		v = append(v, envVar{name: "CLROTEL_CONFIG", value: a.config})
	}
	return v
}

// shadowingVars are variables that, inherited, would override what the
// profiler's variables say.
var shadowingVars = []struct{ name, why string }{
	{"CORECLR_PROFILER_PATH_64", "takes precedence over CORECLR_PROFILER_PATH"},
	{"CORECLR_PROFILER_PATH_32", "takes precedence over CORECLR_PROFILER_PATH"},
	{"CORECLR_PROFILER_PATH_ARM64", "takes precedence over CORECLR_PROFILER_PATH"},
	{"CORECLR_PROFILER_PATH_ARM32", "takes precedence over CORECLR_PROFILER_PATH"},
	{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "takes precedence over OTEL_EXPORTER_OTLP_ENDPOINT"},
	{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "takes precedence over OTEL_EXPORTER_OTLP_PROTOCOL"},
	{"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "takes precedence over OTEL_EXPORTER_OTLP_ENDPOINT for method metrics"},
	{"OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "takes precedence over OTEL_EXPORTER_OTLP_PROTOCOL for method metrics"},
}

// shadowingNames lists the names of shadowingVars.
func shadowingNames() []string {
	names := make([]string, len(shadowingVars))
	for i, s := range shadowingVars {
		names[i] = s.name
	}
	return names
}

// disabledWarnings explains what in environ keeps the runtime from loading
// any profiler.
func disabledWarnings(environ []string) []string {
	var out []string
	for _, name := range []string{"DOTNET_EnableDiagnostics", "COMPlus_EnableDiagnostics"} {
		if v, ok := lookup(environ, name); ok && v == "0" {
			out = append(out, name+"=0 turns profiling off; unset it "+
				"(on .NET 8+, DOTNET_EnableDiagnostics_IPC=0 and DOTNET_EnableDiagnostics_Debugger=0 keep the rest off)")
		}
	}
	// The OpenTelemetry specification's switch: clrotel refuses to load.
	if v, ok := lookup(environ, "OTEL_SDK_DISABLED"); ok && strings.EqualFold(strings.TrimSpace(v), "true") {
		out = append(out, "OTEL_SDK_DISABLED="+v+" turns clrotel off; unset it")
	}
	return out
}

// shadowWarnings explains what in environ would override the variables
// that env prints.
func shadowWarnings(environ []string) []string {
	var out []string
	for _, s := range shadowingVars {
		if _, ok := lookup(environ, s.name); ok {
			out = append(out, s.name+" is set and "+s.why+"; unset it")
		}
	}
	return out
}

// lookup finds name in environ, a list of KEY=value strings; the last
// assignment wins, as in exec.
func lookup(environ []string, name string) (string, bool) {
	for i := len(environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(environ[i], name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// A dialect writes variable assignments for one kind of consumer.
type dialect struct {
	name   string
	assign func(name, value string) (string, error)
}

var dialects = []dialect{
	{"sh", func(n, v string) (string, error) { return "export " + n + "=" + shQuote(v), nil }},
	{"fish", func(n, v string) (string, error) { return "set -gx " + n + " " + fishQuote(v), nil }},
	{"env-file", func(n, v string) (string, error) {
		if strings.ContainsAny(v, "\n\r\x00") {
			return "", fmt.Errorf("%s: an env file cannot hold a value with a line break", n)
		}
		return n + "=" + v, nil
	}},
}

func findDialect(name string) (dialect, bool) {
	switch name {
	case "bash", "zsh", "dash", "ksh":
		name = "sh"
	}
	for _, d := range dialects {
		if d.name == name {
			return d, true
		}
	}
	return dialect{}, false
}

// shQuote quotes s for a POSIX shell, in single quotes; a single quote
// in s ends the quoting, is escaped with a backslash, and starts it again.
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// fishQuote quotes s for fish, where \\ and \' are the escapes inside
// single quotes.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// writeVars writes vars in dialect d, each comment as a # line above its
// variable.
func writeVars(w io.Writer, d dialect, vars []envVar) error {
	var b strings.Builder
	for _, v := range vars {
		line, err := d.assign(v.name, v.value)
		if err != nil {
			return err
		}
		if v.comment != "" {
			b.WriteString("# " + v.comment + "\n")
		}
		b.WriteString(line + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

const envHelp = `Usage: clrotel env [flags]

Prints the environment variables that attach the clrotel profiler to the
.NET processes started with them, as lines a shell evaluates:

  eval "$(clrotel env --endpoint http://127.0.0.1:4317 --service shop)"
  dotnet Shop.dll

  clrotel env --shell fish --service shop | source
  clrotel env --shell env-file --service shop --lib /opt/clrotel/libclrotel.so > shop.env
      # for systemd's EnvironmentFile= or docker run --env-file

They are CORECLR_ENABLE_PROFILING, CORECLR_PROFILER, CORECLR_PROFILER_PATH,
DOTNET_EnableDiagnostics_Profiler, OTEL_EXPORTER_OTLP_PROTOCOL, and, from
the flags, OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_ENDPOINT and CLROTEL_CONFIG.

Flags (one or two dashes):
`

func runEnv(args []string, stdout, stderr io.Writer) (int, error) {
	var a attachFlags
	fs := flag.NewFlagSet("env", flag.ContinueOnError)
	a.register(fs)
	shell := fs.String("shell", "sh", "output `syntax`: sh (also bash, zsh), fish, or env-file (KEY=value lines)")
	if err := parseFlags(fs, args, envHelp, stdout, stderr); err != nil {
		return 2, err
	}
	if fs.NArg() > 0 {
		return 2, usageError(stderr, "env", "unexpected argument %q", fs.Arg(0))
	}
	if err := a.check(); err != nil {
		return 2, usageError(stderr, "env", "%v", err)
	}
	d, ok := findDialect(*shell)
	if !ok {
		return 2, usageError(stderr, "env", "invalid --shell %q: want sh, fish or env-file", *shell)
	}
	if err := a.resolve(os.Executable); err != nil {
		return 1, err
	}
	if _, err := os.Stat(a.lib); err != nil {
		fmt.Fprintf(stderr, "clrotel env: warning: %v (build it with 'make build', or pass --lib)\n", err)
	}
	environ := os.Environ()
	for _, w := range append(disabledWarnings(environ), shadowWarnings(environ)...) {
		fmt.Fprintf(stderr, "clrotel env: warning: %s\n", w)
	}
	if err := writeVars(stdout, d, a.vars()); err != nil {
		return 1, err
	}
	return 0, nil
}
