package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clrotel/clrotel/internal/exitstatus"
	"github.com/clrotel/clrotel/internal/procenv"
	"github.com/clrotel/clrotel/otlpsink"
	"github.com/clrotel/clrotel/shedding"
)

// clsid is the profiler's CLSID (profiler/callbacks.c, cmd/clrotel).
const clsid = "{8A4C3E5B-2F61-4D7A-9C0E-5B1D7E3F6A21}"

var (
	repoRoot string
	libPath  string
	runtimes []dotnetRuntime
	workDir  string
)

type dotnetRuntime struct {
	Name    string // e.g. net3.1
	Host    string // path of the dotnet host
	Version string // Microsoft.NETCore.App version
}

func TestMain(m *testing.M) {
	os.Exit(setup(m))
}

func setup(m *testing.M) int {
	wd, _ := os.Getwd()
	repoRoot = filepath.Clean(filepath.Join(wd, "..", ".."))
	var err error
	workDir, err = os.MkdirTemp("", "clrotel-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(workDir)

	libPath = os.Getenv("CLROTEL_LIB")
	if libPath == "" {
		libPath = filepath.Join(workDir, "libclrotel.so")
		// As make build does: the linker script that starts Go only when
		// something can be selected (profiler/golazy.ld) is part of the
		// product; a library without it starts Go at load, whose signal
		// handlers then take the app's faults when clrotel refuses.
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-tags", "grpcnotrace",
			"-ldflags", "-extldflags=-Wl,-T,"+filepath.Join(repoRoot, "profiler", "golazy.ld"), "-o", libPath, "./profiler")
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: building the profiler: %v\n%s", err, out)
			return 1
		}
	}
	runtimes = findRuntimes()
	if len(runtimes) == 0 {
		fmt.Fprintln(os.Stderr, "e2e: no .NET runtime under .deps/: run `make deps`")
		return 1
	}
	if _, err := exec.LookPath("mcs"); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: mcs not found: run `make deps`")
		return 1
	}
	return m.Run()
}

func findRuntimes() []dotnetRuntime {
	var out []dotnetRuntime
	for _, c := range []struct{ name, dir string }{{"net3.1", "dotnet"}, {"net8", "dotnet8"}} {
		host := filepath.Join(repoRoot, ".deps", c.dir, "dotnet")
		vers, _ := filepath.Glob(filepath.Join(repoRoot, ".deps", c.dir, "shared", "Microsoft.NETCore.App", "*"))
		if _, err := os.Stat(host); err != nil || len(vers) == 0 {
			continue
		}
		out = append(out, dotnetRuntime{Name: c.name, Host: host, Version: filepath.Base(vers[0])})
	}
	return out
}

// appLibraries lists the library assemblies an app references, as paths
// relative to the app's directory: "dir/Lib" is tests/e2e/apps/Lib.cs
// compiled to dir/Lib.dll, where the runtime does not look for it.
var appLibraries = map[string][]string{"Values": {"Geometry"}, "Basic": {"Geometry"}, "Resolve": {"plugins/ResolvePlugin"}}

// appSources names apps kept outside tests/e2e/apps, by their source
// relative to the repository root.
var appSources = map[string]string{"Shop": "examples/shop/Shop.cs"}

var (
	compileMu sync.Mutex
	compiled  = map[string]string{}
)

// appPath compiles tests/e2e/apps/<name>.cs with mcs (once per test run) and
// returns a directory holding <name>.exe with a runtimeconfig for rt.
func appPath(t *testing.T, name string, rt dotnetRuntime) string {
	t.Helper()
	compileMu.Lock()
	defer compileMu.Unlock()
	key := name + "/" + rt.Name
	if p, ok := compiled[key]; ok {
		return p
	}
	dir := filepath.Join(workDir, rt.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, name+".exe")
	if il := filepath.Join(repoRoot, "tests", "e2e", "apps", name+".il"); fileExists(il) {
		assembleIL(t, rt, il, dir, name+".exe")
	} else {
		compileCS(t, name, dir, exe)
	}
	cfg := fmt.Sprintf(`{"runtimeOptions":{"framework":{"name":"Microsoft.NETCore.App","version":%q},"configProperties":{"System.Globalization.Invariant":true}}}`, rt.Version)
	if err := os.WriteFile(filepath.Join(dir, name+".runtimeconfig.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	compiled[key] = exe
	return exe
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// assembleIL assembles an app written in IL with Mono's ilasm.exe (from
// the real programs, run on rt) into dir/out. ilasm reads an argument
// starting with / as an option, so the source is copied next to out.
func assembleIL(t *testing.T, rt dotnetRuntime, il, dir, out string) {
	t.Helper()
	d := realSetup(t, rt)
	copyFile(t, il, filepath.Join(dir, filepath.Base(il)))
	cmd := exec.Command(rt.Host, filepath.Join(d.dir, "ilasm.exe"), "/output:"+out, filepath.Base(il))
	cmd.Dir = dir
	cmd.Env = baseEnv()
	if o, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ilasm %s: %v\n%s", il, err, o)
	}
}

// compileCS compiles the C# app name (and the libraries it uses) with mcs.
func compileCS(t *testing.T, name, dir, exe string) {
	t.Helper()
	args := []string{"-nologo", "-optimize+", "-unsafe", "-out:" + exe}
	for _, lib := range appLibraries[name] {
		out := filepath.Join(dir, lib+".dll")
		src := filepath.Join(repoRoot, "tests", "e2e", "apps", filepath.Base(lib)+".cs")
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			t.Fatal(err)
		}
		if o, err := exec.Command("mcs", "-nologo", "-optimize+", "-target:library", "-out:"+out, src).CombinedOutput(); err != nil {
			t.Fatalf("mcs %s: %v\n%s", src, err, o)
		}
		args = append(args, "-r:"+out)
	}
	src := filepath.Join(repoRoot, "tests", "e2e", "apps", name+".cs")
	if p, ok := appSources[name]; ok {
		src = filepath.Join(repoRoot, p)
	}
	cmd := exec.Command("mcs", append(args, src)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mcs %s: %v\n%s", src, err, out)
	}
}

// run is one run of a test app.
type run struct {
	Stdout, Stderr string
	ExitCode       int
	Spans          []otlpsink.Span
	Wall           time.Duration // from start to exit
	MaxRSSKB       int64         // peak resident set size
}

type runOpts struct {
	profiler       bool              // attach the profiler, exporting to a fresh receiver
	profilerNoSink bool              // attach the profiler; env says where it exports
	env            map[string]string // extra environment
	timeout        time.Duration
}

// The CPU budget sheds new traces by how fast the machine runs the app
// against the windows it judges in: on a loaded machine a burst of roots
// spreads over more windows, and more of it is shed. A test counts spans,
// so traced runs have no budget unless the test sets one (settingsEnv):
// the tests of shedding, and those that account for what was shed under
// the defaults (defaultCPUPercent).
const cpuBudgetEnv = "CLROTEL_EXPORT_CPU_PERCENT"

// defaultCPUPercent is the default CPU budget, as cpuBudgetEnv says it.
var defaultCPUPercent = strconv.Itoa(int(math.Round(shedding.DefaultBudget * 100)))

// settingsEnv lists a test's settings as environment entries, for every
// runner of an app. A traced run gets no CPU budget unless they set one
// (cpuBudgetEnv).
func settingsEnv(settings map[string]string, traced bool) []string {
	var env []string
	if _, set := settings[cpuBudgetEnv]; traced && !set {
		env = append(env, cpuBudgetEnv+"=0")
	}
	for k, v := range settings {
		env = append(env, k+"="+v)
	}
	return env
}

// runApp runs app with args on rt, with or without the profiler, and
// collects the spans the profiler exported to a fresh receiver.
func runApp(t *testing.T, rt dotnetRuntime, app string, args []string, o runOpts) run {
	t.Helper()
	exe := appPath(t, app, rt)
	if o.timeout == 0 {
		o.timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, rt.Host, append([]string{exe}, args...)...)
	env := baseEnv()
	var sink *otlpsink.Sink
	if o.profiler {
		var err error
		sink, err = otlpsink.Listen("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer sink.Close()
		env = append(env, exportEnv(sink, "e2e-"+app)...)
	}
	if o.profilerNoSink {
		env = append(env, attachEnv()...)
	}
	cmd.Env = append(env, settingsEnv(o.env, o.profiler || o.profilerNoSink)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := run{Stdout: stdout.String(), Stderr: stderr.String(), Wall: time.Since(start)}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.MaxRSSKB = ru.Maxrss
		}
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.ExitCode = exitstatus.Of(ee.ProcessState)
	default:
		t.Fatalf("running %s: %v", app, err)
	}
	if ctx.Err() != nil {
		t.Fatalf("%s %v timed out after %v\nstderr:\n%s", app, args, o.timeout, r.Stderr)
	}
	// No runtime here omits a Leave (.NET 11's runtime-async methods
	// will): a frame closed for want of one means the shadow stack went
	// wrong (hooks.c clr_on_leave).
	if strings.Contains(r.Stderr, "without their method's Leave") {
		t.Errorf("%s %v: frames closed without their Leave\n%s", app, args, r.Stderr)
	}
	if sink != nil {
		// Everything is flushed before the process exits; a short quiet
		// period catches a straggling request.
		wctx, wcancel := context.WithTimeout(context.Background(), 2*time.Second)
		r.Spans = sink.WaitIdle(wctx, 200*time.Millisecond)
		wcancel()
	}
	return r
}

// attachEnv attaches the library under test.
func attachEnv() []string {
	return []string{"CORECLR_ENABLE_PROFILING=1", "CORECLR_PROFILER=" + clsid, "CORECLR_PROFILER_PATH=" + libPath}
}

// exportEnv attaches the library under test, exporting to sink as service,
// with batches sent every 100 ms.
func exportEnv(sink *otlpsink.Sink, service string) []string {
	return append(attachEnv(), "OTEL_EXPORTER_OTLP_ENDPOINT="+sink.Endpoint(), "OTEL_SERVICE_NAME="+service, "OTEL_BSP_SCHEDULE_DELAY=100")
}

// baseEnv is the environment of a test run: this process's, minus anything
// that would attach a profiler or redirect export.
func baseEnv() []string {
	return append(procenv.Clean(), "DOTNET_CLI_TELEMETRY_OPTOUT=1")
}

// forEachRuntime runs f as a subtest per installed runtime.
func forEachRuntime(t *testing.T, f func(t *testing.T, rt dotnetRuntime)) {
	for _, rt := range runtimes {
		rt := rt
		t.Run(rt.Name, func(t *testing.T) { f(t, rt) })
	}
}

// spanNames lists the distinct span names, sorted.
func spanNames(spans []otlpsink.Span) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range spans {
		if !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, s.Name)
		}
	}
	sort.Strings(out)
	return out
}

func byName(spans []otlpsink.Span, name string) []otlpsink.Span {
	var out []otlpsink.Span
	for _, s := range spans {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

func byID(spans []otlpsink.Span) map[string]otlpsink.Span {
	m := make(map[string]otlpsink.Span, len(spans))
	for _, s := range spans {
		m[s.SpanID] = s
	}
	return m
}

// parentName returns the name of s's parent span, "" for a root, or
// "<missing>" when the parent was not received.
func parentName(all map[string]otlpsink.Span, s otlpsink.Span) string {
	if s.ParentSpanID == "" {
		return ""
	}
	p, ok := all[s.ParentSpanID]
	if !ok {
		return "<missing>"
	}
	return p.Name
}

func dumpSpans(spans []otlpsink.Span) string {
	var b strings.Builder
	_ = otlpsink.WriteTree(&b, spans, otlpsink.TreeOptions{Attrs: false, MaxSpans: 200})
	return b.String()
}
