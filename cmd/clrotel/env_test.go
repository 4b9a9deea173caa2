package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fakeLib makes a file named name in a fresh directory, standing in for
// the profiler library.
func fakeLib(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte("not really a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// parseExports reads `export NAME='value'` lines the way sh does, skipping
// comments, and returns the names in order and their values.
func parseExports(t *testing.T, out string) ([]string, map[string]string) {
	t.Helper()
	var names []string
	values := map[string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if strings.HasPrefix(line, "# ") {
			continue
		}
		rest, ok := strings.CutPrefix(line, "export ")
		if !ok {
			t.Fatalf("not an export line: %q", line)
		}
		name, quoted, ok := strings.Cut(rest, "=")
		if !ok {
			t.Fatalf("no = in %q", line)
		}
		v, err := shUnquote(quoted)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		names = append(names, name)
		values[name] = v
	}
	return names, values
}

// shUnquote undoes the quoting of a word made of single-quoted parts and
// backslash-escaped characters, the only forms shQuote writes.
func shUnquote(s string) (string, error) {
	var b strings.Builder
	for len(s) > 0 {
		switch s[0] {
		case '\'':
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return "", errors.New("unterminated quote")
			}
			b.WriteString(s[1 : 1+end])
			s = s[end+2:]
		case '\\':
			if len(s) < 2 {
				return "", errors.New("trailing backslash")
			}
			b.WriteByte(s[1])
			s = s[2:]
		default:
			return "", errors.New("unquoted text")
		}
	}
	return b.String(), nil
}

func TestEnv(t *testing.T) {
	lib := fakeLib(t, "lib with 'quote.so")
	code, stdout, stderr := run("env", "--endpoint", "http://127.0.0.1:4317", "--service", "shop", "--lib", lib, "--config", "cfg.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	names, got := parseExports(t, stdout)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	wantNames := []string{
		"CORECLR_ENABLE_PROFILING", "CORECLR_PROFILER", "CORECLR_PROFILER_PATH", "DOTNET_EnableDiagnostics_Profiler",
		"OTEL_SERVICE_NAME", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL", "CLROTEL_CONFIG",
	}
	want := map[string]string{
		"CORECLR_ENABLE_PROFILING":          "1",
		"CORECLR_PROFILER":                  "{8A4C3E5B-2F61-4D7A-9C0E-5B1D7E3F6A21}",
		"CORECLR_PROFILER_PATH":             lib,
		"DOTNET_EnableDiagnostics_Profiler": "1",
		"OTEL_SERVICE_NAME":                 "shop",
		"OTEL_EXPORTER_OTLP_ENDPOINT":       "http://127.0.0.1:4317",
		"OTEL_EXPORTER_OTLP_PROTOCOL":       "grpc",
		"CLROTEL_CONFIG":                    filepath.Join(wd, "cfg.yaml"),
	}
	if !reflect.DeepEqual(names, wantNames) {
		t.Errorf("variables\n got %v\nwant %v", names, wantNames)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("values\n got %q\nwant %q", got, want)
	}
	if !strings.Contains(stdout, "# .NET 8+: ") || !strings.Contains(stdout, "export CORECLR_PROFILER_PATH='"+strings.ReplaceAll(lib, "'", `'\''`)+"'\n") {
		t.Errorf("output:\n%s", stdout)
	}
	if stderr != "" && !strings.Contains(stderr, "warning: ") {
		t.Errorf("stderr: %s", stderr)
	}
}

func TestEnvOptionalVariables(t *testing.T) {
	code, stdout, stderr := run("env", "--lib", fakeLib(t, "libclrotel.so"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	names, _ := parseExports(t, stdout)
	want := []string{"CORECLR_ENABLE_PROFILING", "CORECLR_PROFILER", "CORECLR_PROFILER_PATH", "DOTNET_EnableDiagnostics_Profiler", "OTEL_EXPORTER_OTLP_PROTOCOL"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("variables %v, want %v", names, want)
	}
}

// TestEnvEvaluatedByShell has a real shell (and fish, where installed)
// evaluate the output, and checks that values with quotes, spaces,
// backslashes and dollars come through unchanged.
func TestEnvEvaluatedByShell(t *testing.T) {
	lib := fakeLib(t, `it's a $HOME \lib "x".so`)
	shells := []struct {
		shell, prog string
		run         func(script string) *exec.Cmd
	}{
		{"sh", "/bin/sh", func(s string) *exec.Cmd { return exec.Command("/bin/sh", "-c", s) }},
		{"fish", "fish", func(s string) *exec.Cmd { return exec.Command("fish", "-c", s) }},
	}
	for _, sh := range shells {
		t.Run(sh.shell, func(t *testing.T) {
			if _, err := exec.LookPath(sh.prog); err != nil {
				t.Skipf("%s not installed", sh.prog)
			}
			code, stdout, stderr := run("env", "--shell", sh.shell, "--service", "o'brien's shop", "--lib", lib)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			cmd := sh.run(stdout + "\nprintf '%s\\n' \"$CORECLR_PROFILER_PATH\" \"$OTEL_SERVICE_NAME\" \"$CORECLR_PROFILER\"\n")
			cmd.Env = []string{"HOME=/nowhere", "PATH=" + os.Getenv("PATH")}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s\nscript:\n%s", sh.shell, err, out, stdout)
			}
			want := lib + "\no'brien's shop\n" + clsid + "\n"
			if string(out) != want {
				t.Errorf("%s printed\n%q\nwant\n%q", sh.shell, out, want)
			}
		})
	}
}

func TestEnvDialects(t *testing.T) {
	tests := []struct {
		shell, value, want string
	}{
		{"sh", "a b", `export OTEL_SERVICE_NAME='a b'`},
		{"bash", "it's", `export OTEL_SERVICE_NAME='it'\''s'`},
		{"fish", `it's \x`, `set -gx OTEL_SERVICE_NAME 'it\'s \\x'`},
		{"env-file", "a b", `OTEL_SERVICE_NAME=a b`},
	}
	for _, tt := range tests {
		t.Run(tt.shell, func(t *testing.T) {
			code, stdout, stderr := run("env", "--shell", tt.shell, "--service", tt.value, "--lib", fakeLib(t, "libclrotel.so"))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, "\n"+tt.want+"\n") {
				t.Errorf("output does not hold %q:\n%s", tt.want, stdout)
			}
		})
	}
	code, _, stderr := run("env", "--shell", "env-file", "--service", "two\nlines", "--lib", fakeLib(t, "libclrotel.so"))
	if code != 1 || !strings.Contains(stderr, "line break") {
		t.Errorf("env-file with a line break: exit %d, %s", code, stderr)
	}
}

func TestEnvMissingLibraryWarns(t *testing.T) {
	lib := filepath.Join(t.TempDir(), "libclrotel.so")
	code, stdout, stderr := run("env", "--lib", lib)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, got := parseExports(t, stdout); got["CORECLR_PROFILER_PATH"] != lib {
		t.Errorf("CORECLR_PROFILER_PATH %q, want %q", got["CORECLR_PROFILER_PATH"], lib)
	}
	if !strings.Contains(stderr, "warning: ") || !strings.Contains(stderr, lib) {
		t.Errorf("stderr %q, want a warning naming %s", stderr, lib)
	}
}

func TestCheckEndpoint(t *testing.T) {
	tests := []struct {
		endpoint string
		problem  string // "" for valid
	}{
		{"http://127.0.0.1:4317", ""},
		{"https://collector.example:4317", ""},
		{"http://[::1]:4317", ""},
		{"http://collector", ""},
		{"127.0.0.1:4317", "want a URL"},
		{"localhost:4317", "scheme must be http or https"},
		{"ftp://collector:21", "scheme must be http or https"},
		{"grpc://collector:4317", "scheme must be http or https"},
		{"http://", "no host"},
		{"http://:4317", "no host"},
		{"http://collector:99999", "out of range"},
		{"http://collector:port", "invalid port"},
		{" http://collector:4317", "want a URL"},
	}
	for _, tt := range tests {
		err := checkEndpoint(tt.endpoint)
		switch {
		case tt.problem == "" && err != nil:
			t.Errorf("%q: %v", tt.endpoint, err)
		case tt.problem != "" && (err == nil || !strings.Contains(err.Error(), tt.problem) || !strings.Contains(err.Error(), "--endpoint")):
			t.Errorf("%q: error %v, want one naming --endpoint and saying %q", tt.endpoint, err, tt.problem)
		}
		if tt.problem == "" {
			continue
		}
		for _, args := range [][]string{
			{"env", "--endpoint", tt.endpoint, "--lib", "/x/libclrotel.so"},
			{"run", "--endpoint", tt.endpoint, "--lib", "/x/libclrotel.so", "--", "true"},
		} {
			code, _, stderr := run(args...)
			if code != 2 || !strings.Contains(stderr, "--endpoint") {
				t.Errorf("clrotel %q: exit %d, stderr %q; want 2 and a message naming --endpoint", args, code, stderr)
			}
		}
	}
}

func TestLibBeside(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "opt", "clrotel", "clrotel")
	link := filepath.Join(dir, "bin", "clrotel")
	for _, d := range []string{filepath.Dir(real), filepath.Dir(link)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(real, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	got, err := libBeside(link)
	if err != nil {
		t.Fatal(err)
	}
	// The temporary directory may itself sit behind a link.
	wantDir, err := filepath.EvalSymlinks(filepath.Dir(real))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(wantDir, "libclrotel.so"); got != want {
		t.Errorf("libBeside(%s) = %s, want %s", link, got, want)
	}

	var a attachFlags
	if err := a.resolve(func() (string, error) { return link, nil }); err != nil || a.lib != got {
		t.Errorf("resolve: lib %q, %v; want %q", a.lib, err, got)
	}
	a = attachFlags{}
	if err := a.resolve(func() (string, error) { return "", errors.New("no /proc") }); err == nil || !strings.Contains(err.Error(), "--lib") {
		t.Errorf("resolve without an executable: %v, want an error pointing at --lib", err)
	}
}

func TestEnvironmentWarnings(t *testing.T) {
	tests := []struct {
		name     string
		environ  []string
		disabled []string // parts, in order
		shadow   []string
	}{
		{name: "clean", environ: []string{"PATH=/bin", "DOTNET_EnableDiagnostics=1"}},
		{name: "diagnostics off", environ: []string{"DOTNET_EnableDiagnostics=0", "COMPlus_EnableDiagnostics=0"},
			disabled: []string{"DOTNET_EnableDiagnostics=0", "COMPlus_EnableDiagnostics=0"}},
		{name: "last assignment wins", environ: []string{"DOTNET_EnableDiagnostics=0", "DOTNET_EnableDiagnostics=1"}},
		{name: "SDK disabled", environ: []string{"OTEL_SDK_DISABLED=True"}, disabled: []string{"OTEL_SDK_DISABLED=True"}},
		{name: "SDK not disabled", environ: []string{"OTEL_SDK_DISABLED=false", "OTEL_SDK_DISABLED=1"}},
		{name: "shadowing", environ: []string{"CORECLR_PROFILER_PATH_64=/other.so", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://x:4317"},
			shadow: []string{"CORECLR_PROFILER_PATH_64", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"}},
	}
	check := func(t *testing.T, kind string, got, want []string) {
		if len(got) != len(want) {
			t.Fatalf("%s warnings %q, want %d", kind, got, len(want))
		}
		for i := range want {
			if !strings.HasPrefix(got[i], want[i]) {
				t.Errorf("%s warning %q, want it about %s", kind, got[i], want[i])
			}
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, "disabled", disabledWarnings(tt.environ), tt.disabled)
			check(t, "shadow", shadowWarnings(tt.environ), tt.shadow)
		})
	}
}

func TestShQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `''`},
		{"plain", `'plain'`},
		{"a b", `'a b'`},
		{"it's", `'it'\''s'`},
		{"''", `''\'''\'''`},
		{`$HOME \n "x"`, `'$HOME \n "x"'`},
	}
	for _, tt := range tests {
		if got := shQuote(tt.in); got != tt.want {
			t.Errorf("shQuote(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if back, err := shUnquote(shQuote(tt.in)); err != nil || back != tt.in {
			t.Errorf("shUnquote(shQuote(%q)) = %q, %v", tt.in, back, err)
		}
	}
}
