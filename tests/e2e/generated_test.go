package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clrotel/clrotel/tests/csgen/difftest"
)

// Programs from the generator (tests/csgen), each run untraced, traced
// with capture on and traced with capture off on both runtimes: the
// traced runs exit and print as the untraced one, every traced call is
// accounted for, and no value of these ordinary objects is <unreadable>.
// CLROTEL_GEN_SEEDS sets how many seeds (default 6), CLROTEL_GEN_FIRST
// the first one; `make campaign` runs thousands. The regression cases
// under testdata/generated always run.
func TestGeneratedPrograms(t *testing.T) {
	n, first := 6, int64(1)
	if v, err := strconv.Atoi(os.Getenv("CLROTEL_GEN_SEEDS")); err == nil {
		n = v
	}
	if v, err := strconv.ParseInt(os.Getenv("CLROTEL_GEN_FIRST"), 10, 64); err == nil {
		first = v
	}
	var rts []difftest.Runtime
	for _, rt := range runtimes {
		rts = append(rts, difftest.Runtime{Name: rt.Name, Host: rt.Host, Version: rt.Version})
	}
	cfg := &difftest.Config{Lib: libPath, Runtimes: rts, Dir: filepath.Join(workDir, "generated"), StrictValues: true}
	check := func(t *testing.T, res *difftest.Result) {
		for _, f := range res.Failures {
			t.Errorf("%s", f)
		}
		for _, r := range res.Runs {
			if r.Mode == "untraced" || r.Signal != "" || r.TimedOut {
				continue
			}
			a := readAccount(t, r.Stderr)
			if a.exported != r.Received || a.failed != 0 || a.lost != 0 {
				t.Errorf("%s %s: profiler %+v, receiver got %d spans", r.Runtime, r.Mode, a, r.Received)
			}
		}
		if t.Failed() {
			path := filepath.Join(res.Dir, "Gen.cs")
			t.Logf("program: %s (kept until the test ends)", path)
		}
	}
	ctx := context.Background()
	for i := 0; i < n; i++ {
		seed := first + int64(i)
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			start := time.Now()
			res := cfg.Check(ctx, seed)
			t.Logf("%d runs in %v (compile %v); features %s", len(res.Runs), time.Since(start).Round(time.Millisecond), res.Compile.Round(time.Millisecond), strings.Join(res.Program.Features, " "))
			check(t, res)
		})
	}
	cases, _ := filepath.Glob(filepath.Join(repoRoot, "tests", "e2e", "testdata", "generated", "*.cs"))
	for _, c := range cases {
		c := c
		name := strings.TrimSuffix(filepath.Base(c), ".cs")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(c)
			if err != nil {
				t.Fatal(err)
			}
			res := &difftest.Result{Dir: filepath.Join(workDir, "generated", name)}
			cfg.CheckSource(ctx, res, string(src), !strings.Contains(string(src), "csgen:inexact-calls"))
			check(t, res)
		})
	}
}
