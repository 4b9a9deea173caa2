package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/clrotel/clrotel/internal/procenv"
	"github.com/clrotel/clrotel/otlpsink"
)

const (
	clrotelCLSID  = "{8A4C3E5B-2F61-4D7A-9C0E-5B1D7E3F6A21}"
	floorCLSID    = "{3C1E0F10-7B2A-4E55-9F21-0D446B0E119A}"
	ownFloorCLSID = "{3C1E0F11-7B2A-4E55-9F21-0D446B0E119B}"
	// A CLSID no library here answers to: the runtime loads the library,
	// which refuses it, and runs the app without a profiler.
	refusedCLSID = "{3C1E0F12-7B2A-4E55-9F21-0D446B0E119C}"
)

// The service benchmark's settings (flags).
var onlyConfigs string // -configs

var (
	serviceSeconds, servicePairsN int
	serviceOnly                   bool
	serviceEnv                    []string // -service-env
	realprogOnly                  bool     // -realprog-only
	realprogRounds                int      // -realprog-rounds
	realprogAgainst               string   // -realprog-against
	runcostOnly                   bool     // -run-only
	runcostRounds                 int      // -run-rounds
	runcostCLI                    string   // -clrotel
)

type config struct {
	id, name string
	env      func(sink string) []string
	sink     bool
	paced    bool // run the paced workload instead of the timed loops
}

var workloads = []string{"two-ints", "string-100", "object-3-fields", "await-resume", "queued-item"}

type result struct {
	ns        map[string]float64 // workload -> ns per call
	wall      time.Duration
	rssKB     int64
	spans     int
	dropped   int64
	exportFor time.Duration // from the first span received to the last
	pacedRate float64       // calls per second the paced workload achieved
}

func main() {
	calls := flag.Int("calls", 10_000_000, "calls per workload")
	reps := flag.Int("reps", 3, "runs per configuration (interleaved)")
	pacedRate := flag.Int("paced-rate", 200_000, "calls per second of the paced workload (config 7)")
	pacedSecs := flag.Int("paced-seconds", 5, "duration of the paced workload")
	startups := flag.Int("startups", 21, "hello-world runs per configuration for startup time")
	dotnet := flag.String("dotnet", ".deps/dotnet", "runtime folder (.deps/dotnet or .deps/dotnet8)")
	lib := flag.String("lib", "build/libclrotel.so", "clrotel library")
	out := flag.String("out", "bench/results", "where raw results go")
	service := flag.Int("service", 10, "seconds of wrk load per run of the service benchmark (0: skip it)")
	servicePairs := flag.Int("service-pairs", 3, "interleaved untraced/traced runs of the service benchmark")
	onlyService := flag.Bool("service-only", false, "run the service benchmark alone")
	svcShapes := flag.String("service-shapes", strings.Join(serviceShapes, ","), "comma-separated shapes of the service benchmark (threads, pool, async)")
	svcEnv := flag.String("service-env", "", "comma-separated K=V settings added to the traced service runs (e.g. CLROTEL_EXPORT_CPU_PERCENT=2)")
	startupOnly := flag.Bool("startup-only", false, "run only the start-up section")
	startupRounds := flag.Int("startup-rounds", 15, "interleaved rounds of the start-up section (0: skip it)")
	flag.BoolVar(&realprogOnly, "realprog-only", false, "run only the real-programs section")
	flag.IntVar(&realprogRounds, "realprog-rounds", 5, "interleaved rounds of the real-programs section (0: skip it)")
	flag.StringVar(&realprogAgainst, "realprog-against", "", "another clrotel library (the one before a change): the real-programs section runs it with the defaults too, in the same interleaved rounds")
	flag.BoolVar(&runcostOnly, "run-only", false, "run only the clrotel run section")
	flag.IntVar(&runcostRounds, "run-rounds", 5, "interleaved rounds of the clrotel run section (0: skip it)")
	flag.StringVar(&runcostCLI, "clrotel", "build/clrotel", "the clrotel command the clrotel run section measures")
	flag.StringVar(&onlyConfigs, "configs", "", "comma-separated config ids to run (1 and 2 always run: the ratios need them); empty: all")
	flag.Parse()
	serviceSeconds, servicePairsN, serviceOnly = *service, *servicePairs, *onlyService
	serviceShapes = strings.Split(*svcShapes, ",")
	for _, sh := range serviceShapes {
		if sh != "threads" && sh != "pool" && sh != "async" {
			fmt.Fprintf(os.Stderr, "bench: -service-shapes: unknown shape %q (threads, pool, async)\n", sh)
			os.Exit(2)
		}
	}
	if *svcEnv != "" {
		serviceEnv = strings.Split(*svcEnv, ",")
	}
	paced := []string{"paced", strconv.Itoa(*pacedRate), strconv.Itoa(*pacedSecs)}
	if err := run(*calls, *reps, *startups, paced, *dotnet, *lib, *out, *startupOnly, *startupRounds); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(calls, reps, startups int, paced []string, dotnetDir, lib, outDir string, startupOnly bool, startupRounds int) error {
	root, _ := os.Getwd()
	lib, _ = filepath.Abs(lib)
	host := filepath.Join(root, dotnetDir, "dotnet")
	vers, _ := filepath.Glob(filepath.Join(root, dotnetDir, "shared", "Microsoft.NETCore.App", "*"))
	if len(vers) == 0 {
		return fmt.Errorf("no runtime in %s: run make deps", dotnetDir)
	}
	version := filepath.Base(vers[0])
	work, err := os.MkdirTemp("", "clrotel-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	floor := filepath.Join(work, "libfloor.so")
	if o, err := exec.Command("gcc", "-std=c11", "-O2", "-fPIC", "-shared", "-fvisibility=hidden", "-o", floor, "bench/floor/floor.c").CombinedOutput(); err != nil {
		return fmt.Errorf("building the floor: %v\n%s", err, o)
	}
	ownFloor := filepath.Join(work, "libownfloor.so")
	if o, err := exec.Command("gcc", "-std=c11", "-O2", "-fPIC", "-shared", "-fvisibility=hidden", "-o", ownFloor, "bench/floor/ownfloor.c").CombinedOutput(); err != nil {
		return fmt.Errorf("building the own-code floor: %v\n%s", err, o)
	}
	goEmpty := filepath.Join(work, "libgoempty.so")
	if o, err := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags", "-s -w", "-o", goEmpty, "./bench/floor/goempty").CombinedOutput(); err != nil {
		return fmt.Errorf("building the empty Go library: %v\n%s", err, o)
	}
	rc := fmt.Sprintf(`{"runtimeOptions":{"framework":{"name":"Microsoft.NETCore.App","version":%q},"configProperties":{"System.Globalization.Invariant":true}}}`, version)
	for _, app := range []struct{ name, src string }{{"Bench", "examples/bench/Bench.cs"}, {"Hello", ""}} {
		src := app.src
		if src == "" {
			src = filepath.Join(work, "Hello.cs")
			os.WriteFile(src, []byte(`public static class Hello { public static int Main() { System.Console.WriteLine("hello"); return 0; } }`), 0o644)
		}
		if o, err := exec.Command("mcs", "-nologo", "-optimize+", "-out:"+filepath.Join(work, app.name+".exe"), src).CombinedOutput(); err != nil {
			return fmt.Errorf("mcs %s: %v\n%s", src, err, o)
		}
		os.WriteFile(filepath.Join(work, app.name+".runtimeconfig.json"), []byte(rc), 0o644)
	}

	profOf := func(lib string, extra ...string) func(string) []string {
		return func(sink string) []string {
			env := []string{"CORECLR_ENABLE_PROFILING=1", "CORECLR_PROFILER=" + clrotelCLSID, "CORECLR_PROFILER_PATH=" + lib,
				"CLROTEL_LOG_LEVEL=info", "OTEL_SERVICE_NAME=bench"}
			if sink != "" {
				env = append(env, "OTEL_EXPORTER_OTLP_ENDPOINT="+sink)
			} else {
				env = append(env, "OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:1")
			}
			return append(env, extra...)
		}
	}
	prof := func(extra ...string) func(string) []string { return profOf(lib, extra...) }
	configs := []config{
		{"1", "no profiler", func(string) []string { return nil }, false, false},
		{"2", "empty-hook floor", func(string) []string {
			return []string{"CORECLR_ENABLE_PROFILING=1", "CORECLR_PROFILER=" + floorCLSID, "CORECLR_PROFILER_PATH=" + floor}
		}, false, false},
		{"3", "clrotel, nothing selected", prof("CLROTEL_INCLUDE=Nothing.Selected"), false, false},
		{"4", "clrotel, always_off", prof("CLROTEL_INCLUDE=Bench.Work.*", "OTEL_TRACES_SAMPLER=always_off"), false, false},
		{"5", "clrotel, always_on, values, export", prof("CLROTEL_INCLUDE=Bench.Work.*", "OTEL_TRACES_SAMPLER=always_on"), true, false},
		{"6", "clrotel, ratio 0.01, values, export", prof("CLROTEL_INCLUDE=Bench.Work.*", "OTEL_TRACES_SAMPLER=traceidratio", "OTEL_TRACES_SAMPLER_ARG=0.01"), true, false},
		{"7", "as 5, paced at " + paced[1] + " calls/s", prof("CLROTEL_INCLUDE=Bench.Work.*", "OTEL_TRACES_SAMPLER=always_on"), true, true},
		// The defaults select the whole app: the Work methods run under a
		// traced caller and fold into it after the rule's 1,000 calls.
		{"8", "clrotel, defaults: calls folded", prof(), true, false},
		// The same with the folded methods keeping their hooks.
		{"9", "clrotel, defaults, re-JIT off", prof("CLROTEL_FOLD_REJIT=off"), true, false},
	}
	base := procenv.Clean()
	if serviceOnly {
		st, err := serviceBench(host, work, version, lib, base, serviceSeconds, servicePairsN)
		if err != nil {
			return fmt.Errorf("service: %w", err)
		}
		fmt.Print(st)
		return nil
	}
	startupConfigs := []startupConfig{
		{"untraced", func(string) []string { return nil }, false},
		{"empty-hook floor", configs[1].env, false},
		{"own-code floor", func(string) []string {
			return []string{"CORECLR_ENABLE_PROFILING=1", "CORECLR_PROFILER=" + ownFloorCLSID, "CORECLR_PROFILER_PATH=" + ownFloor}
		}, false},
		// What a Go profiler pays before it does anything: an empty Go
		// c-shared library, and clrotel's own library under a CLSID it
		// refuses (loaded and relocated; the Go runtime it holds back until
		// something can be selected never starts).
		{"empty Go library", func(string) []string {
			return []string{"CORECLR_ENABLE_PROFILING=1", "CORECLR_PROFILER=" + refusedCLSID, "CORECLR_PROFILER_PATH=" + goEmpty}
		}, false},
		{"clrotel loaded, refused", func(string) []string {
			return []string{"CORECLR_ENABLE_PROFILING=1", "CORECLR_PROFILER=" + refusedCLSID, "CORECLR_PROFILER_PATH=" + lib}
		}, false},
		{"clrotel, nothing selected", configs[2].env, false},
		{"clrotel, defaults", prof(), true},
		// COR_PRF_ENABLE_REJIT (asked for in Initialize with the default
		// CLROTEL_FOLD_REJIT) against the same without it.
		{"clrotel, defaults, re-JIT off", prof("CLROTEL_FOLD_REJIT=off"), true},
	}
	startupSection := func(raw *bytes.Buffer) error {
		if startupRounds <= 0 {
			return nil // skipped, as the other sections are with 0 rounds
		}
		table, lines, err := runStartup(host, work, version, rc, startupRounds, startupConfigs, base)
		if err != nil {
			return fmt.Errorf("start-up: %w", err)
		}
		fmt.Print(table)
		raw.WriteString(lines)
		raw.WriteString(table)
		return nil
	}
	// The real-programs section (realprog.go): untraced, the own-code
	// floor, and clrotel's defaults with capture on and off.
	realprogSection := func(raw *bytes.Buffer) error {
		if realprogRounds <= 0 {
			return nil
		}
		cfgs := []startupConfig{
			startupConfigs[0], startupConfigs[2], startupConfigs[6], // untraced, own-code floor, clrotel defaults
			{"clrotel, defaults, capture off", prof("CLROTEL_CAPTURE=off"), true},
		}
		if realprogAgainst != "" {
			// A before/after in one run: the rounds interleave both
			// libraries, so the machine's drift between runs is no change.
			other, _ := filepath.Abs(realprogAgainst)
			cfgs = append(cfgs, startupConfig{"other library (-realprog-against), defaults", profOf(other), true})
		}
		table, lines, err := runRealprog(host, work, version, rc, realprogRounds, cfgs, base)
		if err != nil {
			return fmt.Errorf("real programs: %w", err)
		}
		fmt.Print(table)
		raw.WriteString(lines)
		raw.WriteString(table)
		return nil
	}
	// The clrotel run section (runcost.go): its fixed and per-span cost.
	runcostSection := func(raw *bytes.Buffer) error {
		if runcostRounds <= 0 {
			return nil
		}
		cli, _ := filepath.Abs(runcostCLI)
		table, lines, err := runRunCost(host, work, version, rc, cli, lib, runcostRounds, base)
		if err != nil {
			return fmt.Errorf("clrotel run: %w", err)
		}
		fmt.Print(table)
		raw.WriteString(lines)
		raw.WriteString(table)
		return nil
	}
	if runcostOnly {
		var raw bytes.Buffer
		fmt.Fprintf(&raw, "clrotel run benchmark %s, .NET %s\n", time.Now().UTC().Format(time.RFC3339), version)
		if err := runcostSection(&raw); err != nil {
			return err
		}
		return saveRaw(outDir, "-run-net"+version, raw.Bytes())
	}
	if realprogOnly {
		var raw bytes.Buffer
		fmt.Fprintf(&raw, "clrotel real-programs benchmark %s, .NET %s\n", time.Now().UTC().Format(time.RFC3339), version)
		if err := realprogSection(&raw); err != nil {
			return err
		}
		return saveRaw(outDir, "-realprog-net"+version, raw.Bytes())
	}
	if startupOnly {
		var raw bytes.Buffer
		fmt.Fprintf(&raw, "clrotel start-up benchmark %s, .NET %s\n", time.Now().UTC().Format(time.RFC3339), version)
		if err := startupSection(&raw); err != nil {
			return err
		}
		return saveRaw(outDir, "-startup-net"+version, raw.Bytes())
	}
	if onlyConfigs != "" {
		keep := map[string]bool{"1": true, "2": true}
		for _, id := range strings.Split(onlyConfigs, ",") {
			keep[strings.TrimSpace(id)] = true
		}
		var cs []config
		for _, c := range configs {
			if keep[c.id] {
				cs = append(cs, c)
			}
		}
		configs = cs
	}
	results := map[string][]result{}
	var raw bytes.Buffer
	fmt.Fprintf(&raw, "clrotel benchmark %s, .NET %s, %d calls per workload, %d runs each\n", time.Now().UTC().Format(time.RFC3339), version, calls, reps)
	for r := 0; r < reps; r++ {
		for _, c := range configs {
			args := []string{strconv.Itoa(calls)}
			if c.paced {
				args = paced
			}
			res, err := benchRun(host, filepath.Join(work, "Bench.exe"), args, base, c)
			if err != nil {
				return fmt.Errorf("config %s: %w", c.id, err)
			}
			results[c.id] = append(results[c.id], res)
			fmt.Fprintf(&raw, "run %d config %s: %v wall %v rss %d KB spans %d in %v dropped %d paced %.0f/s\n", r+1, c.id, res.ns, res.wall, res.rssKB, res.spans, res.exportFor, res.dropped, res.pacedRate)
			fmt.Fprintf(os.Stderr, "bench: run %d/%d, config %s done\n", r+1, reps, c.id)
		}
	}
	// Startup: hello world, the four configurations interleaved so that
	// drift in the machine's speed touches them alike.
	startup := map[string]time.Duration{}
	times := map[string][]time.Duration{}
	for i := 0; i < startups; i++ {
		for _, c := range configs[:min(4, len(configs))] {
			start := time.Now()
			cmd := exec.Command(host, filepath.Join(work, "Hello.exe"))
			cmd.Env = append(base, c.env("")...)
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("hello under config %s: %w", c.id, err)
			}
			times[c.id] = append(times[c.id], time.Since(start))
		}
	}
	for _, c := range configs[:min(4, len(configs))] {
		startup[c.id] = medianDur(times[c.id])
		fmt.Fprintf(&raw, "startup config %s: %v\n", c.id, times[c.id])
	}

	table := formatTable(configs, results, startup, version, calls, reps)
	if serviceSeconds > 0 {
		st, err := serviceBench(host, work, version, lib, base, serviceSeconds, servicePairsN)
		if err != nil {
			return fmt.Errorf("service: %w", err)
		}
		table += st
	}
	fmt.Print(table)
	raw.WriteString(table)
	if err := startupSection(&raw); err != nil {
		return err
	}
	if err := realprogSection(&raw); err != nil {
		return err
	}
	if err := runcostSection(&raw); err != nil {
		return err
	}
	return saveRaw(outDir, "-net"+version, raw.Bytes())
}

// saveRaw keeps a run's raw numbers in outDir, named by date and suffix.
func saveRaw(outDir, suffix string, b []byte) error {
	if err := os.MkdirAll(outDir, 0o755); err == nil {
		name := filepath.Join(outDir, time.Now().UTC().Format("2006-01-02")+suffix+".txt")
		if err := os.WriteFile(name, b, 0o644); err == nil {
			fmt.Fprintf(os.Stderr, "bench: raw results in %s\n", name)
		}
	}
	return nil
}

var (
	droppedRE = regexp.MustCompile(`\((\d+) in all\)`)
	exportRE  = regexp.MustCompile(`\d+ spans exported, (\d+) failed, (\d+) lost at exit`)
)

func benchRun(host, exe string, args []string, base []string, c config) (result, error) {
	res := result{ns: map[string]float64{}}
	var sink *otlpsink.Sink
	endpoint := ""
	if c.sink {
		var err error
		if sink, err = otlpsink.Listen("127.0.0.1:0", otlpsink.WithCountOnly()); err != nil {
			return res, err
		}
		defer sink.Close()
		endpoint = sink.Endpoint()
	}
	cmd := exec.Command(host, append([]string{exe}, args...)...)
	cmd.Env = append(append([]string{}, base...), c.env(endpoint)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, io.MultiWriter(&stderr)
	// The export window: from the first span received to the last, watched
	// while the app runs and until the receiver goes quiet.
	var first, last time.Time
	watched := make(chan struct{})
	stopWatch := make(chan struct{})
	go func() {
		defer close(watched)
		if sink == nil {
			return
		}
		seen := 0
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stopWatch:
				return
			case now := <-t.C:
				if n := sink.Count(); n != seen {
					if seen == 0 {
						first = now
					}
					seen, last = n, now
				}
			}
		}
	}()
	start := time.Now()
	if err := cmd.Run(); err != nil {
		close(stopWatch)
		return res, fmt.Errorf("%v\n%s", err, stderr.String())
	}
	res.wall = time.Since(start)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.rssKB = ru.Maxrss
	}
	for _, line := range strings.Split(stdout.String(), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 {
			if v, err := strconv.ParseFloat(f[1], 64); err == nil {
				res.ns[f[0]] = v
			}
		}
	}
	if m := droppedRE.FindAllStringSubmatch(stderr.String(), -1); len(m) > 0 {
		res.dropped, _ = strconv.ParseInt(m[len(m)-1][1], 10, 64)
	}
	// Spans the exporter could not deliver count as dropped too.
	if m := exportRE.FindStringSubmatch(stderr.String()); m != nil {
		failed, _ := strconv.ParseInt(m[1], 10, 64)
		lost, _ := strconv.ParseInt(m[2], 10, 64)
		res.dropped += failed + lost
	}
	if sink != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		sink.WaitIdle(ctx, 500*time.Millisecond)
		cancel()
	}
	close(stopWatch)
	<-watched
	if sink != nil {
		res.spans = sink.Count()
		res.exportFor = last.Sub(first)
	}
	if r, ok := res.ns["paced-rate"]; ok {
		res.pacedRate = r
		delete(res.ns, "paced-rate")
		delete(res.ns, "paced-calls")
	}
	return res, nil
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

func medianOf(rs []result, f func(result) float64) float64 {
	var v []float64
	for _, r := range rs {
		v = append(v, f(r))
	}
	return median(v)
}

func medianDur(v []time.Duration) time.Duration {
	s := append([]time.Duration(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

func formatTable(configs []config, results map[string][]result, startup map[string]time.Duration, version string, calls, reps int) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "\nclrotel overhead, .NET %s, %s, %d calls per workload, median of %d interleaved runs\n\n", version, time.Now().UTC().Format("2006-01-02"), calls, reps)
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "config\t"+strings.Join(workloads, " ns\t")+" ns\tvs 1 (two-ints)\tover floor\tstartup\tpeak RSS\tspans/s\tdropped\t")
	med := func(id, wl string) float64 {
		var v []float64
		for _, r := range results[id] {
			v = append(v, r.ns[wl])
		}
		return median(v)
	}
	for _, c := range configs {
		rs := results[c.id]
		row := []string{c.id + " " + c.name}
		if c.paced {
			// No timed loops: the row is about export.
			row = append(row, make([]string, len(workloads)+3)...)
			for i := range row[1:] {
				row[i+1] = "-"
			}
			row = append(row, fmt.Sprintf("%.0f MB", medianOf(rs, func(r result) float64 { return float64(r.rssKB) })/1024),
				fmt.Sprintf("%.0f", medianOf(rs, func(r result) float64 { return float64(r.spans) / r.exportFor.Seconds() })),
				fmt.Sprintf("%.0f", medianOf(rs, func(r result) float64 { return float64(r.dropped) })))
			fmt.Fprintln(w, strings.Join(row, "\t")+"\t")
			continue
		}
		for _, wl := range workloads {
			row = append(row, fmt.Sprintf("%.1f", med(c.id, wl)))
		}
		m, m1, m2 := med(c.id, "two-ints"), med("1", "two-ints"), med("2", "two-ints")
		row = append(row, fmt.Sprintf("%.2fx", m/m1))
		over := "-"
		if c.id != "1" && m2-m1 > 0 {
			over = fmt.Sprintf("%.2fx", (m-m1)/(m2-m1))
		}
		row = append(row, over)
		if d, ok := startup[c.id]; ok {
			row = append(row, fmt.Sprintf("%.1f ms", float64(d)/1e6))
		} else {
			row = append(row, "-")
		}
		var rss []float64
		var spans, dropped []float64
		var rate []float64
		for _, r := range rs {
			rss = append(rss, float64(r.rssKB))
			spans = append(spans, float64(r.spans))
			dropped = append(dropped, float64(r.dropped))
			if r.exportFor > 0 {
				rate = append(rate, float64(r.spans)/r.exportFor.Seconds())
			}
		}
		row = append(row, fmt.Sprintf("%.0f MB", median(rss)/1024))
		if c.sink {
			row = append(row, fmt.Sprintf("%.0f", median(rate)), fmt.Sprintf("%.0f", median(dropped)))
		} else {
			row = append(row, "-", "-")
		}
		fmt.Fprintln(w, strings.Join(row, "\t")+"\t")
	}
	w.Flush()
	// The cost an await adds, traced: config 5 traces Bench.Work.Resumes
	// (one span, a continuation per resume) with values.
	if r1, r5 := med("1", "await-resume"), med("5", "await-resume"); r1 > 0 && r5 > 0 {
		fmt.Fprintf(&b, "\nawait resume: %.0f ns untraced, %.0f ns traced (config 5): %+.0f ns added per resume\n", r1, r5, r5-r1)
	}
	// A queued work item, traced: its maker and run are hooked and its
	// callback's span joins the queuing one (Bench.Work.QueueItems).
	if r1, r5 := med("1", "queued-item"), med("5", "queued-item"); r1 > 0 && r5 > 0 {
		fmt.Fprintf(&b, "queued work item: %.0f ns untraced, %.0f ns traced (config 5): %+.0f ns added per item (its callback's span included)\n", r1, r5, r5-r1)
	}
	fmt.Fprintf(&b, "\n\"vs 1\": two-ints ns per call over no profiler; \"over floor\": clrotel's added cost per call over the empty-hook floor's (1.00x = the floor);\n\"spans/s\": spans received over the export window (first to last received); \"dropped\": calls not recorded plus spans not delivered.\n")
	return b.String()
}
