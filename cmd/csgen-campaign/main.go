package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/clrotel/clrotel/tests/csgen/difftest"
)

func main() {
	os.Exit(run())
}

func run() int {
	n := flag.Int("n", 100, "number of seeds")
	j := flag.Int("j", 2, "parallel workers")
	first := flag.Int64("first", 1, "first seed")
	lib := flag.String("lib", "build/libclrotel.so", "the profiler library")
	root := flag.String("root", ".", "the repository (runtimes under .deps/)")
	out := flag.String("out", "build/campaign", "where failing seeds are kept")
	lax := flag.Bool("lax", false, "do not count <unreadable> values and faulted runtime calls as failures")
	timeout := flag.Duration("timeout", 60*time.Second, "per run")
	units := flag.String("units", "", "draw only units of these kinds, comma-separated (iterators,linq...): a campaign over one feature's shapes")
	vary := flag.Bool("vary", false, "vary the profiler's settings per seed (ring size, value limits, folding, depth...)")
	var envs multi
	flag.Var(&envs, "env", "KEY=VALUE for the traced runs (repeatable)")
	minimize := flag.String("minimize", "", "shrink this failing program (a kept Gen.cs) instead of running a campaign")
	minRT := flag.String("runtime", "net8", "with -minimize: the runtime it fails on")
	minMode := flag.String("mode", "capture-on", "with -minimize: the traced mode it fails in")
	minKind := flag.String("kind", "crash", "with -minimize: the failure kind to keep (crash, stdout, exit-code, accounting, unreadable)")
	flag.Parse()

	libAbs, err := filepath.Abs(*lib)
	if err == nil {
		_, err = os.Stat(libAbs)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "csgen-campaign: the profiler library: %v (run `make build`)\n", err)
		return 2
	}
	rootAbs, _ := filepath.Abs(*root)
	rts := difftest.FindRuntimes(rootAbs)
	if len(rts) == 0 {
		fmt.Fprintln(os.Stderr, "csgen-campaign: no runtime under .deps/ (run `make deps`)")
		return 2
	}
	outAbs, _ := filepath.Abs(*out)
	work, err := os.MkdirTemp("", "csgen-campaign-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(work)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := &difftest.Config{Lib: libAbs, Runtimes: rts, Dir: work, Timeout: *timeout, StrictValues: !*lax, Env: envs}
	if *vary {
		cfg.EnvFor = difftest.Vary
	}
	if *units != "" {
		cfg.Gen.Only = strings.Split(*units, ",")
	}
	if *minimize != "" {
		return runMinimize(ctx, cfg, *minimize, *minRT, *minMode, *minKind)
	}
	var names []string
	for _, rt := range rts {
		names = append(names, rt.Name+" "+rt.Version)
	}
	fmt.Printf("campaign: seeds %d..%d, %d workers, runtimes %s, library %s\n", *first, *first+int64(*n)-1, *j, strings.Join(names, ", "), libAbs)

	seeds := make(chan int64)
	results := make(chan *difftest.Result)
	var wg sync.WaitGroup
	for w := 0; w < *j; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range seeds {
				res := cfg.Check(ctx, s)
				results <- res
			}
		}()
	}
	go func() {
		defer close(seeds)
		for i := 0; i < *n; i++ {
			select {
			case seeds <- *first + int64(i):
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	start := time.Now()
	var st stats
	st.kinds = map[string]int{}
	for res := range results {
		st.add(res)
		if len(res.Failures) > 0 {
			dir := filepath.Join(outAbs, fmt.Sprint(res.Seed))
			if err := keep(res, dir); err != nil {
				fmt.Fprintf(os.Stderr, "csgen-campaign: keeping seed %d: %v\n", res.Seed, err)
			}
			fmt.Printf("FAIL seed %d (%s): %s\n", res.Seed, dir, summary(res.Failures))
			if len(res.Env) > 0 {
				fmt.Printf("     with %s\n", strings.Join(res.Env, " "))
			}
		} else {
			os.RemoveAll(res.Dir)
		}
		if st.programs%10 == 0 || st.programs == *n {
			el := time.Since(start)
			fmt.Printf("[%d/%d] %d failing seeds; %.1f s per program; elapsed %v\n", st.programs, *n, st.failing, el.Seconds()/float64(st.programs), el.Round(time.Second))
		}
	}
	wall := time.Since(start)
	fmt.Printf("\nsummary: %d programs, %d runs, %d crashes, %d output differences, %d other failures (%s), %d failing seeds; wall %v\n",
		st.programs, st.runs, st.kinds["crash"]+st.kinds["timeout"], st.kinds["stdout"]+st.kinds["exit-code"], st.other(), st.kindList(), st.failing, wall.Round(time.Second))
	if len(st.failed) > 0 {
		sort.Slice(st.failed, func(a, b int) bool { return st.failed[a] < st.failed[b] })
		fmt.Printf("failing seeds: %v (kept under %s)\n", st.failed, outAbs)
	}
	if ctx.Err() != nil {
		fmt.Println("interrupted")
		return 130
	}
	if st.failing > 0 {
		return 1
	}
	return 0
}

type stats struct {
	programs, runs, failing int
	kinds                   map[string]int
	failed                  []int64
}

func (s *stats) add(r *difftest.Result) {
	s.programs++
	s.runs += len(r.Runs)
	if len(r.Failures) > 0 {
		s.failing++
		s.failed = append(s.failed, r.Seed)
	}
	for _, f := range r.Failures {
		s.kinds[f.Kind]++
	}
}

func (s *stats) other() int {
	n := 0
	for k, v := range s.kinds {
		switch k {
		case "crash", "timeout", "stdout", "exit-code":
		default:
			n += v
		}
	}
	return n
}

func (s *stats) kindList() string {
	var ks []string
	for k, v := range s.kinds {
		ks = append(ks, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(ks)
	if len(ks) == 0 {
		return "none"
	}
	return strings.Join(ks, ", ")
}

func summary(fs []difftest.Failure) string {
	var xs []string
	for _, f := range fs {
		xs = append(xs, f.Runtime+" "+f.Mode+" "+f.Kind)
	}
	return strings.Join(xs, "; ")
}

// keep writes a failing seed's program, every run's outputs and logs, and
// the failures.
func keep(r *difftest.Result, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "Gen.cs"), []byte(r.Program.Source), 0o644); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d\nfeatures %s\nexact calls %v\nsettings %s\n\n", r.Seed, strings.Join(r.Program.Features, " "), r.Program.ExactCalls, strings.Join(r.Env, " "))
	for _, f := range r.Failures {
		fmt.Fprintf(&b, "%s\n\n", f)
	}
	for _, run := range r.Runs {
		fmt.Fprintf(&b, "run %s %s: exit %d signal %q timed out %v, %d spans received, %d unreadable, %d faulted, %v\n",
			run.Runtime, run.Mode, run.ExitCode, run.Signal, run.TimedOut, run.Received, run.Unreadable, run.Faulted, run.Wall.Round(time.Millisecond))
		base := filepath.Join(dir, run.Runtime+"-"+run.Mode)
		if err := os.WriteFile(base+".stdout", []byte(run.Stdout), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(base+".stderr", []byte(run.Stderr), 0o644); err != nil {
			return err
		}
		if run.Stacks != "" {
			if err := os.WriteFile(base+".stacks", []byte(run.Stacks), 0o644); err != nil {
				return err
			}
		}
	}
	return os.WriteFile(filepath.Join(dir, "failures.txt"), []byte(b.String()), 0o644)
}

// runMinimize shrinks a failing program and writes it next to the input
// as <name>.min.cs.
func runMinimize(ctx context.Context, cfg *difftest.Config, path, rtName, mode, kind string) int {
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var rt *difftest.Runtime
	for i := range cfg.Runtimes {
		if cfg.Runtimes[i].Name == rtName {
			rt = &cfg.Runtimes[i]
		}
	}
	if rt == nil {
		fmt.Fprintf(os.Stderr, "csgen-campaign: no runtime %q\n", rtName)
		return 2
	}
	start := time.Now()
	fmt.Printf("minimizing %s (%d lines) for %s on %s %s\n", path, strings.Count(string(src), "\n"), kind, rt.Name, mode)
	out, err := cfg.Minimize(ctx, string(src), *rt, mode, kind, func(n int) {
		fmt.Printf("  %d lines (%v)\n", n, time.Since(start).Round(time.Second))
	})
	if err != nil && out == "" {
		fmt.Fprintf(os.Stderr, "csgen-campaign: %v\n", err)
		return 1
	}
	dst := strings.TrimSuffix(path, ".cs") + ".min.cs"
	if err := os.WriteFile(dst, []byte(out), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Printf("%d lines: %s\n", strings.Count(out, "\n"), dst)
	return 0
}

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }
