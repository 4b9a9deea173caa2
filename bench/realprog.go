package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/clrotel/clrotel/tests/csgen"
)

// The real-programs section (issue 16): CPU-bound third-party programs
// under clrotel's defaults, against the same programs untraced and under
// the own-code floor (empty hooks on exactly what the defaults select).
// Runs are interleaved in rounds as in the start-up section, and each
// clrotel run's exit line is read back: every call the hooks saw must be a
// span, folded into one, or counted as dropped.

// realprogSeed is the generated program: of seeds 1-40 (tests/csgen,
// default size), the one with the deepest recursion (Deep: 1,366 frames,
// a binary tree of depth 6) and no threads or async, so that every run
// makes the same calls.
const realprogSeed = 4

type realprog struct {
	name string
	args []string // after the dotnet host
	skip string   // why it does not run on this runtime
}

// realprogs prepares work/real: the programs `make deps` installed, the
// Cecil driver and the generated program compiled with mcs, a
// runtimeconfig per program.
func realprogs(work, version, rc string) ([]realprog, error) {
	root, _ := os.Getwd()
	deps := filepath.Join(root, ".deps", "realprograms")
	bin := filepath.Join(deps, "bin")
	if _, err := os.Stat(filepath.Join(bin, "mcs.exe")); err != nil {
		return nil, fmt.Errorf("the real programs are not installed (%v): run make deps", err)
	}
	dir := filepath.Join(work, "real")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	files, _ := filepath.Glob(filepath.Join(bin, "*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			return nil, err
		}
	}
	gen := filepath.Join(dir, "Gen.cs")
	if err := os.WriteFile(gen, []byte(csgen.Generate(realprogSeed, csgen.Options{}).Source), 0o644); err != nil {
		return nil, err
	}
	drivers := filepath.Join(root, "tests", "e2e", "apps", "real")
	for _, c := range [][]string{
		{"-optimize+", "-out:CecilCount.exe", "-r:Mono.Cecil.dll", filepath.Join(drivers, "CecilCount.cs")},
		{"-optimize+", "-out:CsParse.exe", "-r:ICSharpCode.NRefactory.dll", "-r:ICSharpCode.NRefactory.CSharp.dll", filepath.Join(drivers, "CsParse.cs")},
		{"-optimize+", "-out:DnRead.exe", "-r:dnlib.dll", filepath.Join(drivers, "DnRead.cs")},
		// As tests/csgen/difftest compiles generated programs.
		{"-langversion:7.2", "-optimize+", "-unsafe", "-nowarn:162,168,169,219,414,429,649,1717", "-out:Gen.exe", gen},
	} {
		cmd := exec.Command("mcs", append([]string{"-nologo"}, c...)...)
		cmd.Dir = dir
		if o, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("mcs %v: %v\n%s", c, err, o)
		}
	}
	for _, exe := range []string{"CecilCount", "CsParse", "DnRead", "Gen", "mcs"} {
		if err := os.WriteFile(filepath.Join(dir, exe+".runtimeconfig.json"), []byte(rc), 0o644); err != nil {
			return nil, err
		}
	}
	ref := filepath.Join(deps, "ref45")
	mcs := func(name, src string) realprog {
		p := realprog{name: name, args: []string{filepath.Join(dir, "mcs.exe"), "-nostdlib",
			"-r:" + filepath.Join(ref, "mscorlib.dll"), "-r:" + filepath.Join(ref, "System.dll"), "-r:" + filepath.Join(ref, "System.Core.dll"),
			"-out:" + filepath.Join(dir, strings.NewReplacer(" ", "-", "/", "-").Replace(name)+".exe"), filepath.Join(root, filepath.FromSlash(src))}}
		if strings.HasPrefix(version, "3.") {
			p.skip = "mcs.exe needs .NET 8: on 3.1 Mono's mscorlib facade lacks Stack<T>"
		}
		return p
	}
	return []realprog{
		{name: "Cecil reader over mcs.exe", args: []string{filepath.Join(dir, "CecilCount.exe"), filepath.Join(dir, "mcs.exe")}},
		{name: "NRefactory parsing Shop.cs and Big.cs", args: []string{filepath.Join(dir, "CsParse.exe"),
			filepath.Join(root, "examples", "shop", "Shop.cs"), filepath.Join(drivers, "Big.cs")}},
		{name: "dnlib reading and writing Mono.Cecil.dll", args: []string{filepath.Join(dir, "DnRead.exe"), filepath.Join(dir, "Mono.Cecil.dll")}},
		mcs("mcs.exe compiling examples/shop", "examples/shop/Shop.cs"),
		mcs("mcs.exe compiling Big.cs", "tests/e2e/apps/real/Big.cs"),
		{name: fmt.Sprintf("generated program, seed %d", realprogSeed), args: []string{filepath.Join(dir, "Gen.exe")}},
	}, nil
}

// exitRE reads the profiler's shutdown line; eventsLostRE and valuesLostRE
// its reports of records lost for want of ring room.
var (
	exitRE       = regexp.MustCompile(`(\d+) spans exported, (\d+) failed, (\d+) lost at exit; (\d+) calls dropped; (\d+) calls folded; (\d+) calls shed \((\d+) traces\)`)
	eventsLostRE = regexp.MustCompile(`(\d+) exception, catch or Activity records not recorded`)
	valuesLostRE = regexp.MustCompile(`, (\d+) so far: capture buffers too full`)
)

// accounting is what one traced run's exit line and receiver said.
type accounting struct {
	spans, failed, lost, dropped, folded int64
	shed, shedTraces                     int64 // calls and traces shed whole at their root
	eventsLost, valuesLost               int64 // records lost: exception/catch/Activity, calls' values
	received, maxPerTrace, traces        int
}

// read reads a traced run's log into a; false when it has no exit line.
func (a *accounting) read(stderr string) bool {
	m := exitRE.FindStringSubmatch(stderr)
	if m == nil {
		return false
	}
	n := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
	a.spans, a.failed, a.lost, a.dropped, a.folded, a.shed, a.shedTraces = n(m[1]), n(m[2]), n(m[3]), n(m[4]), n(m[5]), n(m[6]), n(m[7])
	if m := eventsLostRE.FindStringSubmatch(stderr); m != nil {
		a.eventsLost = n(m[1])
	}
	for _, m := range valuesLostRE.FindAllStringSubmatch(stderr, -1) {
		a.valuesLost = max(a.valuesLost, n(m[1]))
	}
	return true
}

// calls is every call the hooks saw: a span (exported or not), folded, or
// dropped. Calls of folded methods after their re-JIT without hooks reach
// no hook and are not counted.
func (a accounting) calls() int64 { return a.spans + a.failed + a.lost + a.dropped + a.folded + a.shed }

// unaccounted is the share of calls neither exported as a span nor folded.
func (a accounting) unaccounted() float64 {
	if a.calls() == 0 {
		return 0
	}
	return float64(a.dropped+a.failed+a.lost) / float64(a.calls())
}

// runRealprog runs the section and returns its table and raw lines.
func runRealprog(host, work, version, rc string, rounds int, configs []startupConfig, base []string) (table, raw string, err error) {
	ps, err := realprogs(work, version, rc)
	if err != nil {
		return "", "", err
	}
	var tb, rb bytes.Buffer
	fmt.Fprintf(&tb, "\nreal programs, .NET %s, %s: medians of %d interleaved rounds; ratios are per round, over that round's untraced run (in brackets: p25-p75); CPU is user+system time\n\n", version, time.Now().UTC().Format("2006-01-02"), rounds)
	w := tabwriter.NewWriter(&tb, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, configHeader("program", configs))
	var notes []string
	for _, p := range ps {
		if p.skip != "" {
			fmt.Fprintf(w, "%s\tskipped: %s\t\n", p.name, p.skip)
			continue
		}
		times := make([][]time.Duration, len(configs))
		cpus := make([][]time.Duration, len(configs))
		accts := make([][]accounting, len(configs))
		failed := make([]string, len(configs))
		var wantOut string
		wantExit := -1
		for r := 0; r < rounds; r++ {
			for k := range configs {
				i := (k + r) % len(configs)
				c := configs[i]
				res, err := runOnce(host, p.args, filepath.Join(work, "real"), base, c)
				if err != nil {
					return "", "", err
				}
				d, cpu, exit, runErr := res.wall, res.cpu, res.exit, res.err
				a := accounting{received: res.received, maxPerTrace: res.maxPerTrace, traces: res.trace}
				if _, ok := runErr.(*exec.ExitError); ok && exit > 0 {
					runErr = nil
				}
				if runErr == nil && i == 0 {
					wantExit = exit
				} else if runErr == nil && wantExit >= 0 && exit != wantExit {
					runErr = fmt.Errorf("exit code %d, untraced %d", exit, wantExit)
				}
				if runErr != nil {
					failed[i] = runErr.Error()
					fmt.Fprintf(&rb, "realprog %s %s round %d: %v\n%s\n", p.name, c.name, r, runErr, tail(res.stderr, 400))
					d = -1
				}
				// The traced app's behaviour never changes: its output is
				// the untraced run's.
				if i == 0 {
					wantOut = res.stdout
				} else if wantOut != "" && res.stdout != wantOut && failed[i] == "" {
					failed[i] = "output differs from untraced"
					fmt.Fprintf(&rb, "realprog %s %s round %d: output differs\n%s\n", p.name, c.name, r, tail(res.stdout, 400))
				}
				if !a.read(res.stderr) && c.sink && failed[i] == "" {
					failed[i] = "no exit line"
				}
				times[i] = append(times[i], d)
				cpus[i] = append(cpus[i], cpu)
				accts[i] = append(accts[i], a)
				if c.sink {
					fmt.Fprintf(&rb, "realprog %s | %s | round %d: wall %v cpu %v; %d spans exported (%d received, %d traces, at most %d in one), %d failed, %d lost, %d dropped, %d folded, %d shed (%d traces); records lost: %d exception/catch, %d calls' values\n",
						p.name, c.name, r, d, cpu, a.spans, a.received, a.traces, a.maxPerTrace, a.failed, a.lost, a.dropped, a.folded, a.shed, a.shedTraces, a.eventsLost, a.valuesLost)
				}
			}
			fmt.Fprintf(os.Stderr, "bench: real programs: %s round %d/%d\n", p.name, r+1, rounds)
		}
		wallRow, cpuRow := p.name+", wall\t", p.name+", CPU\t"
		for i, c := range configs {
			fmt.Fprintf(&rb, "realprog %s | %s: wall %v cpu %v\n", p.name, c.name, times[i], cpus[i])
			if failed[i] != "" {
				wallRow += "fails (" + failed[i] + ")\t"
				cpuRow += "-\t"
				continue
			}
			wallRow += pairedCell(times[i], times[0], i == 0)
			cpuRow += pairedCell(cpus[i], cpus[0], i == 0)
			if c.sink {
				notes = append(notes, accountNote(p.name, c.name, accts[i]))
			}
		}
		fmt.Fprintln(w, wallRow)
		fmt.Fprintln(w, cpuRow)
	}
	w.Flush()
	fmt.Fprintf(&tb, "\ncalls each clrotel run accounted for (medians over the rounds; \"not exported\": dropped, failed or lost, worst round; target <= 0.1%%;\nspans per trace: the most the receiver got for one trace, target <= 10,000):\n")
	for _, n := range notes {
		tb.WriteString(n)
	}
	fmt.Fprintf(&tb, "\ntargets (issues 16, 30): every program at most 2x untraced with the defaults, no call dropped and no record lost. \"own-code floor\": empty hooks on the defaults'\nselection, ReadyToRun kept (bench/floor/ownfloor.c): what ELT costs before clrotel records anything; clrotel's\nre-JIT of folded methods can take it below that floor. clrotel's runs export to a local receiver.\n")
	return tb.String(), rb.String(), nil
}

// accountNote is one clrotel configuration's accounting line.
func accountNote(prog, config string, as []accounting) string {
	med := func(f func(accounting) int64) int64 {
		v := make([]int64, len(as))
		for i, a := range as {
			v[i] = f(a)
		}
		sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
		return v[len(v)/2]
	}
	worst, maxTrace := 0.0, 0
	for _, a := range as {
		worst = max(worst, a.unaccounted())
		maxTrace = max(maxTrace, a.maxPerTrace)
	}
	var worstLost int64
	for _, a := range as {
		worstLost = max(worstLost, a.eventsLost+a.valuesLost)
	}
	return fmt.Sprintf("  %s, %s: %d calls: %d spans, %d folded, %d shed whole (%d traces), %d dropped; not exported %.3f%%; records lost (exception/catch, values), worst round: %d; at most %d spans in a trace\n",
		prog, config, med(accounting.calls), med(func(a accounting) int64 { return a.spans }),
		med(func(a accounting) int64 { return a.folded }), med(func(a accounting) int64 { return a.shed }),
		med(func(a accounting) int64 { return a.shedTraces }), med(func(a accounting) int64 { return a.dropped }),
		100*worst, worstLost, maxTrace)
}
