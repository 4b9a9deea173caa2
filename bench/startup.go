package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

// The start-up section: what attaching clrotel costs before a single span
// is made. Each workload runs under four configurations, interleaved in
// rounds (one run of each per round, in a rotating order), so that the
// machine's drift touches them alike; each round's runs are compared with
// that round's untraced run, and the table shows medians of those paired
// ratios and the spread (p25-p75) that says how noisy the machine was.

type startupConfig struct {
	name string
	env  func(sink string) []string
	sink bool // export to a local receiver (count only), as a deployment would
}

// runResult is one timed run of a workload under a configuration.
type runResult struct {
	wall, cpu          time.Duration // cpu: the process's user+system time
	exit               int           // -1 when it did not exit normally
	stdout, stderr     string
	received           int // spans the local receiver got (c.sink)
	maxPerTrace, trace int // the most spans in one trace, and the traces
	err                error
}

// runOnce runs host args in dir under c (with a count-only receiver when
// c.sink), timing it. A failure to start the receiver is the error; the
// run's own failure is in res.err.
func runOnce(host string, args []string, dir string, base []string, c startupConfig) (res runResult, err error) {
	endpoint := ""
	var sink *otlpsink.Sink
	if c.sink {
		if sink, err = otlpsink.Listen("127.0.0.1:0", otlpsink.WithCountOnly()); err != nil {
			return res, err
		}
		endpoint = sink.Endpoint()
	}
	cmd := exec.Command(host, args...)
	cmd.Env = append(append([]string{}, base...), c.env(endpoint)...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	res.err = cmd.Run()
	res.wall = time.Since(start)
	if sink != nil {
		sink.Close() // waits for the exports in flight
		res.received = sink.Count()
		res.maxPerTrace, res.trace = sink.MaxSpansPerTrace()
	}
	res.exit = -1
	if cmd.ProcessState != nil {
		res.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		res.exit = cmd.ProcessState.ExitCode()
	}
	res.stdout, res.stderr = stdout.String(), stderr.String()
	return res, nil
}

type startupWorkload struct {
	name string
	args []string // after the dotnet host
}

// mcsDir is where Debian's mono-mcs keeps the 4.5 compiler and the
// reference assemblies it compiles against.
const mcsDir = "/usr/lib/mono/4.5"

// startupWorkloads: hello world, and a real program. On .NET 8 the real
// program is mcs.exe compiling examples/shop (mcs.exe runs on CoreCLR 8
// with a runtimeconfig.json; on 3.1 its mscorlib facade lacks Stack<T>), on
// 3.1 it is the example shop app itself.
func startupWorkloads(work, version, rc string) ([]startupWorkload, error) {
	hello := filepath.Join(work, "Hello.exe") // built by run
	ws := []startupWorkload{{"hello world", []string{hello}}}
	if !strings.HasPrefix(version, "3.") {
		if _, err := os.Stat(filepath.Join(mcsDir, "mcs.exe")); err != nil {
			fmt.Fprintf(os.Stderr, "bench: no %s/mcs.exe (apt-get install mono-mcs): the mcs workload is left out\n", mcsDir)
			return ws, nil
		}
		dir := filepath.Join(work, "mcs")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		b, err := os.ReadFile(filepath.Join(mcsDir, "mcs.exe"))
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, "mcs.exe"), b, 0o644); err != nil {
			return nil, err
		}
		os.WriteFile(filepath.Join(dir, "mcs.runtimeconfig.json"), []byte(rc), 0o644)
		src, _ := filepath.Abs("examples/shop/Shop.cs")
		return append(ws, startupWorkload{"mcs.exe compiling examples/shop", []string{
			filepath.Join(dir, "mcs.exe"), "-nostdlib",
			"-r:" + mcsDir + "/mscorlib.dll", "-r:" + mcsDir + "/System.dll", "-r:" + mcsDir + "/System.Core.dll",
			"-out:" + filepath.Join(dir, "Shop.exe"), src,
		}}), nil
	}
	shop := filepath.Join(work, "Shop.exe")
	if o, err := exec.Command("mcs", "-nologo", "-optimize+", "-out:"+shop, "examples/shop/Shop.cs").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("mcs examples/shop: %v\n%s", err, o)
	}
	os.WriteFile(filepath.Join(work, "Shop.runtimeconfig.json"), []byte(rc), 0o644)
	return append(ws, startupWorkload{"examples/shop", []string{shop}}), nil
}

// configHeader is a table's head row: first, then a column per config.
func configHeader(first string, configs []startupConfig) string {
	head := first + "\t"
	for _, c := range configs {
		head += c.name + "\t"
	}
	return head
}

// runStartup runs the section and returns its table and raw lines.
func runStartup(host, work, version, rc string, rounds int, configs []startupConfig, base []string) (table, raw string, err error) {
	ws, err := startupWorkloads(work, version, rc)
	if err != nil {
		return "", "", err
	}
	var tb, rb bytes.Buffer
	fmt.Fprintf(&tb, "\nstart-up, .NET %s, %s: medians of %d interleaved rounds; ratios are per round, over that round's untraced run (in brackets: p25-p75 of the ratios); CPU is the process's user+system time, steadier than wall time on a shared machine\n\n", version, time.Now().UTC().Format("2006-01-02"), rounds)
	w := tabwriter.NewWriter(&tb, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, configHeader("workload", configs))
	for _, wl := range ws {
		times := make([][]time.Duration, len(configs))
		cpus := make([][]time.Duration, len(configs)) // user+system time of the process
		failed := make([]string, len(configs))
		for r := 0; r < rounds; r++ {
			for k := range configs {
				i := (k + r) % len(configs) // rotate who goes first
				c := configs[i]
				res, err := runOnce(host, wl.args, work, base, c)
				if err != nil {
					return "", "", err
				}
				d, cpu, err := res.wall, res.cpu, res.err
				if err != nil {
					failed[i] = fmt.Sprintf("%v", err)
					fmt.Fprintf(&rb, "startup %s %s round %d: %v\n%s\n", wl.name, c.name, r, err, tail(res.stderr, 400))
					d = -1
				}
				times[i] = append(times[i], d)
				cpus[i] = append(cpus[i], cpu)
			}
			fmt.Fprintf(os.Stderr, "bench: start-up %s round %d/%d\n", wl.name, r+1, rounds)
		}
		wallRow, cpuRow := wl.name+", wall\t", wl.name+", CPU\t"
		for i, c := range configs {
			fmt.Fprintf(&rb, "startup %s %s: wall %v cpu %v\n", wl.name, c.name, times[i], cpus[i])
			if failed[i] != "" {
				wallRow += "fails (" + failed[i] + ")\t"
				cpuRow += "-\t"
				continue
			}
			wallRow += pairedCell(times[i], times[0], i == 0)
			cpuRow += pairedCell(cpus[i], cpus[0], i == 0)
		}
		fmt.Fprintln(w, wallRow)
		fmt.Fprintln(w, cpuRow)
	}
	w.Flush()
	fmt.Fprintf(&tb, "\ntargets (issue 17): nothing selected <= 1.15x untraced, defaults <= 1.3x. \"floor\": plain ELT, every method hooked and every module\nJIT-compiled; \"own-code floor\": empty hooks on the defaults' selection only, ReadyToRun kept (bench/floor/ownfloor.c), the least\nany ELT profiler pays to trace what the defaults select. \"empty Go library\": a Go c-shared library that exports nothing (the Go\nruntime starts, nothing is profiled); \"clrotel loaded, refused\": clrotel's library under a CLSID it refuses (loaded and\nrelocated; its Go runtime, held back until something can be selected, never starts). clrotel's defaults export to a local receiver.\n")
	return tb.String(), rb.String(), nil
}

// pairedCell shows a configuration's median and, against the untraced
// runs of the same rounds, the median of the per-round ratios and their
// p25-p75 range; the untraced cell shows its own spread instead.
func pairedCell(v, base []time.Duration, isBase bool) string {
	med := medianDur(v)
	if isBase {
		return fmt.Sprintf("%.1f ms (spread %.0f%%)\t", float64(med)/1e6, 100*spread(v))
	}
	r, ok := pairedRatios(durations(v), durations(base))
	if !ok {
		return "-\t"
	}
	return fmt.Sprintf("%.1f ms, %.2fx (%.2f-%.2f)\t", float64(med)/1e6, r.median, r.p25, r.p75)
}

// ratios summarises the per-round ratios of a configuration over its
// baseline.
type ratios struct{ median, p25, p75 float64 }

// pairedRatios divides each round's value by the same round's baseline
// and summarises those ratios. A ratio of two runs made side by side is
// steadier than a ratio of medians: a shared machine drifts by more
// between rounds than a change moves one run. Rounds where either value
// is missing (<= 0, a failed run) are left out; ok is false when none is
// left.
func pairedRatios(v, base []float64) (r ratios, ok bool) {
	var q []float64
	for i := range v {
		if i < len(base) && v[i] > 0 && base[i] > 0 {
			q = append(q, v[i]/base[i])
		}
	}
	if len(q) == 0 {
		return r, false
	}
	sort.Float64s(q)
	return ratios{median: median(q), p25: q[len(q)/4], p75: q[(3*len(q))/4]}, true
}

// durations converts for pairedRatios.
func durations(v []time.Duration) []float64 {
	f := make([]float64, len(v))
	for i, d := range v {
		f[i] = float64(d)
	}
	return f
}

// spread is the p25-p75 range of v over its median.
func spread(v []time.Duration) float64 {
	s := append([]time.Duration(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	m := s[len(s)/2]
	if m <= 0 {
		return 0
	}
	return float64(s[(3*len(s))/4]-s[len(s)/4]) / float64(m)
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
