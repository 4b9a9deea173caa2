package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A broken environment never stops the app: it runs with its own output and
// exit code, traced when the profiler can load, untraced when not.
func TestHostileEnvironment(t *testing.T) {
	rt := runtimes[0]
	plain := runApp(t, rt, "Basic", []string{"names", "5"}, runOpts{})
	dir := t.TempDir()
	logFile := filepath.Join(dir, "clrotel.log")
	tests := []struct {
		name   string
		env    map[string]string
		traced bool
		stderr string
	}{
		{"profiler path wrong", map[string]string{"CORECLR_PROFILER_PATH": "/nonexistent/libclrotel.so"}, false, ""},
		{"library from another build (other CLSID)", map[string]string{"CORECLR_PROFILER": "{00000000-1111-2222-3333-444444444444}"}, false, ""},
		{"unwritable log directory", map[string]string{"CLROTEL_LOG_FILE": "/proc/clrotel/none.log"}, true, "logging to stderr only"},
		{"odd GOMAXPROCS and GOGC", map[string]string{"GOMAXPROCS": "1", "GOGC": "1"}, true, ""},
		{"garbage GOMAXPROCS", map[string]string{"GOMAXPROCS": "lots", "GOGC": "off"}, true, ""},
		{"log file", map[string]string{"CLROTEL_LOG_FILE": logFile, "CLROTEL_LOG_LEVEL": "info"}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runApp(t, rt, "Basic", []string{"names", "5"}, runOpts{profiler: true, env: tt.env})
			if r.ExitCode != 5 || r.Stdout != plain.Stdout {
				t.Fatalf("exit %d, stdout differs: %q\n%s", r.ExitCode, r.Stdout, r.Stderr)
			}
			if tt.traced != (len(r.Spans) > 0) {
				t.Errorf("%d spans, traced want %v\n%s", len(r.Spans), tt.traced, r.Stderr)
			}
			if tt.stderr != "" && !strings.Contains(r.Stderr, tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, r.Stderr)
			}
		})
	}
	// The log file is the owner's only.
	st, err := os.Stat(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if perm := st.Mode().Perm(); perm != 0o600 {
		t.Errorf("log file mode %o, want 600", perm)
	}
	if b, _ := os.ReadFile(logFile); !strings.Contains(string(b), "profiler") {
		t.Errorf("log file content: %q", b)
	}
}

// A library loaded under a CLSID it refuses (another build's) leaves the
// app's own faults to the runtime: a managed division by zero and a null
// dereference are caught by the app as without it. A library that started
// the Go runtime at load (built without profiler/golazy.ld) put Go's
// signal handlers in front of the runtime's, and the first division by
// zero killed the app with SIGFPE (generator seed 4 under the bench's
// "loaded, refused" column).
func TestRefusedLeavesFaultsToTheRuntime(t *testing.T) {
	forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
		plain := runApp(t, rt, "Basic", []string{"faults"}, runOpts{})
		r := runApp(t, rt, "Basic", []string{"faults"}, runOpts{profiler: true, env: map[string]string{"CORECLR_PROFILER": "{00000000-1111-2222-3333-444444444444}"}})
		if r.ExitCode != plain.ExitCode || r.Stdout != plain.Stdout || !strings.Contains(plain.Stdout, "caught DivideByZeroException") {
			t.Fatalf("exit %d (untraced %d), stdout %q (untraced %q)\n%s", r.ExitCode, plain.ExitCode, r.Stdout, plain.Stdout, r.Stderr)
		}
		if len(r.Spans) != 0 {
			t.Errorf("%d spans from a refused library", len(r.Spans))
		}
	})
}
