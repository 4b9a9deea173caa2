package difftest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/clrotel/clrotel/internal/exitstatus"
	"github.com/clrotel/clrotel/internal/procenv"
	"github.com/clrotel/clrotel/otlpsink"
	"github.com/clrotel/clrotel/tests/csgen"
)

// CLSID is the profiler's CLSID (profiler/callbacks.c).
const CLSID = "{8A4C3E5B-2F61-4D7A-9C0E-5B1D7E3F6A21}"

// Runtime is one installed .NET runtime.
type Runtime struct {
	Name    string // net3.1, net8
	Host    string // the dotnet host
	Version string // Microsoft.NETCore.App version
}

// FindRuntimes lists the runtimes `make deps` installs under root/.deps.
func FindRuntimes(root string) []Runtime {
	var out []Runtime
	for _, c := range []struct{ name, dir string }{{"net3.1", "dotnet"}, {"net8", "dotnet8"}} {
		host := filepath.Join(root, ".deps", c.dir, "dotnet")
		vers, _ := filepath.Glob(filepath.Join(root, ".deps", c.dir, "shared", "Microsoft.NETCore.App", "*"))
		if _, err := os.Stat(host); err != nil || len(vers) == 0 {
			continue
		}
		out = append(out, Runtime{Name: c.name, Host: host, Version: filepath.Base(vers[0])})
	}
	return out
}

// Mode is how a program is run.
type Mode struct {
	Name    string
	Traced  bool
	Capture string // CLROTEL_CAPTURE for a traced run
}

// Modes are the three runs per runtime; the first is the reference.
var Modes = []Mode{{Name: "untraced"}, {Name: "capture-on", Traced: true, Capture: "on"}, {Name: "capture-off", Traced: true, Capture: "off"}}

// Account is the profiler's own count at shutdown of where calls went.
// Shed counts the calls of traces shed whole at their root under load.
type Account struct{ Exported, Failed, Lost, Dropped, Folded, Shed int }

// Sum is every traced call the profiler accounted for: a span, a call
// folded into one, or a call of a shed trace.
func (a Account) Sum() int { return a.Exported + a.Failed + a.Lost + a.Dropped + a.Folded + a.Shed }

// reJITRE finds the exit summary's line on folded methods re-JIT-compiled
// without hooks (at least one).
var reJITRE = regexp.MustCompile(`[1-9]\d* folded methods re-JIT-compiled without hooks`)

var accountRE = regexp.MustCompile(`(\d+) spans exported, (\d+) failed, (\d+) lost at exit; (\d+) calls dropped(?:; (\d+) calls folded)?(?:; (\d+) calls shed)?`)
var faultedRE = regexp.MustCompile(`(\d+) runtime calls about objects faulted`)

// ParseAccount reads the shutdown line from a profiler log.
func ParseAccount(stderr string) (Account, bool) {
	m := accountRE.FindStringSubmatch(stderr)
	if m == nil {
		return Account{}, false
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	return Account{n(1), n(2), n(3), n(4), n(5), n(6)}, true
}

// Run is one run of a program.
type Run struct {
	Runtime, Mode  string
	ExitCode       int
	Signal         string // the signal that ended it, if any
	TimedOut       bool
	Stdout, Stderr string
	// Stacks: every thread's stack, printed before a run that timed out
	// was killed ("" otherwise, or without gdb).
	Stacks     string
	Received   int // spans the receiver got
	Unreadable int // attribute values shown as <unreadable>
	Faulted    int // guarded runtime calls the profiler reports as faulted
	Wall       time.Duration
	spans      []otlpsink.Span
}

// Failure is one way a traced run differs from the untraced one.
type Failure struct {
	Runtime, Mode string
	Kind          string // compile, crash, timeout, exit-code, stdout, accounting, unreadable, nondeterministic, plumbing
	Detail        string
}

func (f Failure) String() string {
	return fmt.Sprintf("%s %s: %s: %s", f.Runtime, f.Mode, f.Kind, f.Detail)
}

// Config says what to run with.
type Config struct {
	Lib      string // libclrotel.so
	Runtimes []Runtime
	Dir      string        // where programs are compiled (one subdirectory per seed)
	Timeout  time.Duration // per run (default 60 s)
	Gen      csgen.Options
	// StrictValues makes <unreadable> values and faulted runtime calls
	// failures (the bar for ordinary objects).
	StrictValues bool
	// Env is added to the environment of traced runs; EnvFor, if set,
	// gives more for each seed (Vary).
	Env    []string
	EnvFor func(seed int64) []string
}

// Result is everything known about one seed.
type Result struct {
	Seed     int64
	Env      []string // settings of the traced runs beyond the defaults
	Program  *csgen.Program
	Dir      string
	Compile  time.Duration
	Runs     []Run
	Failures []Failure
	Wall     time.Duration
}

// Compile compiles src into dir/name.exe with mcs as the e2e harness
// does (plus -langversion:7.2 for `in` parameters).
func Compile(ctx context.Context, src, dir, name string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	cs := filepath.Join(dir, name+".cs")
	if err := os.WriteFile(cs, []byte(src), 0o644); err != nil {
		return "", err
	}
	exe := filepath.Join(dir, name+".exe")
	out, err := exec.CommandContext(ctx, "mcs", "-nologo", "-langversion:7.2", "-optimize+", "-unsafe", "-nowarn:162,168,169,219,414,429,649,1717", "-out:"+exe, cs).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("mcs %s: %v\n%s", cs, err, out)
	}
	return exe, nil
}

// runtimeConfig is the runtimeconfig.json of an mcs-built app on rt.
func runtimeConfig(rt Runtime) string {
	return fmt.Sprintf(`{"runtimeOptions":{"framework":{"name":"Microsoft.NETCore.App","version":%q},"configProperties":{"System.Globalization.Invariant":true}}}`, rt.Version)
}

// Check generates the program of seed, compiles it, runs it in every
// mode on every runtime and compares.
func (c *Config) Check(ctx context.Context, seed int64) *Result {
	start := time.Now()
	p := csgen.Generate(seed, c.Gen)
	res := &Result{Seed: seed, Program: p, Dir: filepath.Join(c.Dir, strconv.FormatInt(seed, 10))}
	res.Env = append([]string(nil), c.Env...)
	if c.EnvFor != nil {
		res.Env = append(res.Env, c.EnvFor(seed)...)
	}
	c.CheckSource(ctx, res, p.Source, p.ExactCalls)
	res.Wall = time.Since(start)
	return res
}

// CheckSource compiles and runs src (a generated program or a committed
// regression case) into res. exactCalls says the program makes the same
// traced calls in every run, so capture on and off must account for the
// same number.
func (c *Config) CheckSource(ctx context.Context, res *Result, src string, exactCalls bool) {
	t0 := time.Now()
	exe, err := Compile(ctx, src, res.Dir, "Gen")
	res.Compile = time.Since(t0)
	if err != nil {
		res.Failures = append(res.Failures, Failure{Kind: "compile", Detail: err.Error()})
		return
	}
	for _, rt := range c.Runtimes {
		// One directory per runtime: the runtimeconfig sits next to the exe.
		rdir := filepath.Join(res.Dir, rt.Name)
		if err := os.MkdirAll(rdir, 0o755); err != nil {
			res.Failures = append(res.Failures, Failure{Runtime: rt.Name, Kind: "setup", Detail: err.Error()})
			return
		}
		rexe := filepath.Join(rdir, "Gen.exe")
		data, _ := os.ReadFile(exe)
		if err := os.WriteFile(rexe, data, 0o644); err == nil {
			err = os.WriteFile(filepath.Join(rdir, "Gen.runtimeconfig.json"), []byte(runtimeConfig(rt)), 0o644)
		}
		var runs []Run
		for _, m := range Modes {
			r := c.runEnv(ctx, rt, rexe, m, res.Env)
			runs = append(runs, r)
			res.Runs = append(res.Runs, r)
		}
		free, limited := withoutLimits(res.Env)
		// A call the hooks keep no frame for (past a limit) is counted as
		// dropped whether or not its trace would have been sampled: with
		// traces not sampled, which calls are counted depends on which
		// threads got a slot.
		exact := exactCalls && !(limited && leavesUnsampled(res.Env))
		fails := c.compare(runs, exact)
		if exact && limited {
			// Calls past a limit are counted, not recorded: the same
			// program accounts for as many with the limits as without.
			r := c.runEnv(ctx, rt, rexe, noLimits, free)
			res.Runs = append(res.Runs, r)
			if f, ok := sameSum(runs[2], r); !ok {
				fails = append(fails, Failure{Runtime: rt.Name, Mode: runs[2].Mode, Kind: "accounting", Detail: f})
			}
		}
		if len(res.Env) == 0 {
			// With the default limits every printed argument is captured whole.
			for _, r := range runs {
				if r.Mode == "capture-on" && r.Signal == "" && !r.TimedOut {
					for _, b := range checkValues(runs[0].Stdout, r.spans) {
						fails = append(fails, Failure{Runtime: rt.Name, Mode: r.Mode, Kind: "value", Detail: b})
					}
				}
			}
		}
		for i := range runs {
			runs[i].spans = nil
		}
		if len(fails) > 0 {
			// Is the program itself deterministic? A second untraced run
			// tells a generator bug from a profiler bug.
			again := c.RunOnce(ctx, rt, rexe, Modes[0])
			if again.ExitCode != runs[0].ExitCode || again.Stdout != runs[0].Stdout {
				fails = append(fails, Failure{Runtime: rt.Name, Mode: "untraced", Kind: "nondeterministic",
					Detail: "two untraced runs differ:\n" + diff(runs[0].Stdout, again.Stdout)})
			}
		}
		res.Failures = append(res.Failures, fails...)
	}
}

// compare checks the traced runs against the untraced one (runs[0]).
func (c *Config) compare(runs []Run, exactCalls bool) []Failure {
	base := runs[0]
	var out []Failure
	rejitted := false
	add := func(r Run, kind, format string, a ...any) {
		out = append(out, Failure{Runtime: r.Runtime, Mode: r.Mode, Kind: kind, Detail: fmt.Sprintf(format, a...)})
	}
	if base.TimedOut || base.Signal != "" {
		add(base, "untraced-failed", "untraced run: exit %d signal %q timed out %v\n%s", base.ExitCode, base.Signal, base.TimedOut, tail(base.Stderr))
		return out
	}
	sums := map[string]int{}
	for _, r := range runs[1:] {
		switch {
		case r.TimedOut:
			add(r, "timeout", "no exit within the time limit\n%s", tail(r.Stderr))
			continue
		case r.Signal != "" || (r.ExitCode != base.ExitCode && r.ExitCode >= 128):
			add(r, "crash", "exit %d signal %q (untraced exit %d)\n%s", r.ExitCode, r.Signal, base.ExitCode, tail(r.Stderr))
			continue
		case r.ExitCode != base.ExitCode:
			add(r, "exit-code", "exit %d, untraced %d\n%s", r.ExitCode, base.ExitCode, tail(r.Stderr))
		}
		if r.Stdout != base.Stdout {
			add(r, "stdout", "stdout differs from the untraced run:\n%s", diff(base.Stdout, r.Stdout))
		}
		a, ok := ParseAccount(r.Stderr)
		if !ok {
			add(r, "accounting", "no shutdown accounting in the log\n%s", tail(r.Stderr))
			continue
		}
		if a.Exported != r.Received || a.Failed != 0 || a.Lost != 0 {
			add(r, "accounting", "profiler %+v, receiver got %d spans", a, r.Received)
		}
		sums[r.Mode] = a.Sum()
		if reJITRE.MatchString(r.Stderr) {
			rejitted = true
		}
		if p := iteratorPlumbing(r.spans); len(p) > 0 {
			add(r, "plumbing", "an iterator's enumerator made spans (one span per enumeration, named as its iterator method): %s", strings.Join(p, ", "))
		}
		if c.StrictValues && (r.Unreadable > 0 || r.Faulted > 0) {
			add(r, "unreadable", "%d values <unreadable>, %d runtime calls faulted", r.Unreadable, r.Faulted)
		}
	}
	on, okOn := sums["capture-on"]
	off, okOff := sums["capture-off"]
	// Folded methods re-JIT-compiled without hooks (CLROTEL_FOLD_REJIT) are
	// counted only until then, which depends on timing: no exact sum.
	if exactCalls && okOn && okOff && on != off && !rejitted {
		add(runs[1], "accounting", "%d calls accounted with capture on, %d with capture off", on, off)
	}
	return out
}

// iteratorPlumbing names the distinct spans of an iterator's enumerator
// (its MoveNext, Current, Dispose, GetEnumerator, constructor), which the
// profiler never makes: an enumeration is one span, its iterator
// method's. The programs are compiled by mcs, whose enumerators are
// <Method>c__IteratorN (a test's oracle may know the compiler; the
// profiler tells them from metadata).
func iteratorPlumbing(spans []otlpsink.Span) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range spans {
		if strings.Contains(s.Name, ">c__Iterator") && !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, s.Name)
		}
	}
	sort.Strings(out)
	return out
}

// noLimits is capture-off's run again with the settings but its limits.
var noLimits = Mode{Name: "capture-off-nolimits", Traced: true, Capture: "off"}

// limitSettings are the settings past which calls are counted and not
// recorded: a thread with no capture slot, a stack deeper than the limit.
var limitSettings = []string{"CLROTEL_MAX_THREADS=", "CLROTEL_MAX_DEPTH="}

// withoutLimits is env without its limitSettings, and whether it had any.
func withoutLimits(env []string) (free []string, limited bool) {
	for _, kv := range env {
		lim := false
		for _, p := range limitSettings {
			lim = lim || strings.HasPrefix(kv, p)
		}
		if lim {
			limited = true
		} else {
			free = append(free, kv)
		}
	}
	return free, limited
}

// unsampledSettings are the settings that leave traces not sampled.
var unsampledSettings = []string{"OTEL_TRACES_SAMPLER=always_off", "OTEL_TRACES_SAMPLER=parentbased_always_off", "CLROTEL_SAMPLING_RULES="}

// leavesUnsampled says whether env leaves some traces not sampled (a
// sampling rule may: any is taken to).
func leavesUnsampled(env []string) bool {
	for _, kv := range env {
		for _, p := range unsampledSettings {
			if strings.HasPrefix(kv, p) && kv != "CLROTEL_SAMPLING_RULES=" {
				return true
			}
		}
	}
	return false
}

// sameSum says whether two runs of a program accounted for the same calls;
// runs whose folded methods were re-JIT-compiled without hooks, or that
// did not end, are not compared.
func sameSum(limited, free Run) (string, bool) {
	a, okA := ParseAccount(limited.Stderr)
	b, okB := ParseAccount(free.Stderr)
	if !okA || !okB || limited.TimedOut || free.TimedOut || limited.Signal != "" || free.Signal != "" ||
		reJITRE.MatchString(limited.Stderr) || reJITRE.MatchString(free.Stderr) {
		return "", true
	}
	if a.Sum() != b.Sum() {
		return fmt.Sprintf("%d calls accounted with the thread and depth limits, %d without them (%+v, %+v)", a.Sum(), b.Sum(), a, b), false
	}
	return "", true
}

// noCPUBudget turns off the CPU budget of a traced run unless the
// extra settings set one: the budget sheds traces by how fast the machine
// runs the program, which a loaded machine would make differ between
// capture on and off. A capture buffer half full still sheds; the
// accounting counts those calls (Account.Shed).
const noCPUBudget = "CLROTEL_EXPORT_CPU_PERCENT=0"

// RunOnce runs exe on rt in mode m.
func (c *Config) RunOnce(ctx context.Context, rt Runtime, exe string, m Mode) Run {
	return c.runEnv(ctx, rt, exe, m, c.Env)
}

func (c *Config) runEnv(ctx context.Context, rt Runtime, exe string, m Mode, extra []string) Run {
	timeout := c.Timeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	r := Run{Runtime: rt.Name, Mode: m.Name}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(rctx, rt.Host, exe)
	cmd.Dir = filepath.Dir(exe)
	env := append(procenv.Clean(), "DOTNET_CLI_TELEMETRY_OPTOUT=1")
	var sink *otlpsink.Sink
	if m.Traced {
		var err error
		sink, err = otlpsink.Listen("127.0.0.1:0")
		if err != nil {
			r.Stderr = err.Error()
			r.Signal = "setup"
			return r
		}
		defer sink.Close()
		env = append(env,
			"CORECLR_ENABLE_PROFILING=1",
			"CORECLR_PROFILER="+CLSID,
			"CORECLR_PROFILER_PATH="+c.Lib,
			"OTEL_EXPORTER_OTLP_ENDPOINT="+sink.Endpoint(),
			"OTEL_SERVICE_NAME=csgen",
			"OTEL_BSP_SCHEDULE_DELAY=100",
			"CLROTEL_LOG_LEVEL=info",
			"CLROTEL_CAPTURE="+m.Capture,
			noCPUBudget,
		)
		env = append(env, extra...) // the last of a variable's values wins
	}
	cmd.Env = env
	stacks := stacksOnTimeout(ctx, cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r.Wall = time.Since(start)
	r.Stdout, r.Stderr, r.Stacks = stdout.String(), stderr.String(), stacks()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.ExitCode = exitstatus.Of(ee.ProcessState)
		if sig, ok := exitstatus.Signal(ee.ProcessState); ok {
			r.Signal = sig.String()
		}
	default:
		r.Signal = "start: " + err.Error()
	}
	if rctx.Err() != nil && ctx.Err() == nil {
		r.TimedOut = true
	}
	if sink != nil {
		wctx, wcancel := context.WithTimeout(context.Background(), 2*time.Second)
		spans := sink.WaitIdle(wctx, 200*time.Millisecond)
		wcancel()
		r.Received = len(spans)
		r.spans = spans
		for _, s := range spans {
			for _, v := range s.Attrs {
				if str, ok := v.(string); ok && strings.Contains(str, "<unreadable>") {
					r.Unreadable++
				}
			}
		}
	}
	if m := faultedRE.FindStringSubmatch(r.Stderr); m != nil {
		r.Faulted, _ = strconv.Atoi(m[1])
	}
	return r
}

// tail is the end of a log, enough to see why a run died.
func tail(s string) string {
	const n = 3000
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// diff is a line diff of two outputs, short.
func diff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out strings.Builder
	n := len(al)
	if len(bl) > n {
		n = len(bl)
	}
	shown := 0
	for i := 0; i < n && shown < 10; i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			fmt.Fprintf(&out, "line %d:\n- %q\n+ %q\n", i+1, x, y)
			shown++
		}
	}
	return out.String()
}
