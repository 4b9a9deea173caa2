package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

// The clrotel run section (issue 30): what `clrotel run` adds to a traced
// app, its built-in receiver and tree printer against the same app
// attached with `clrotel env` and exporting to a receiver of its own (a
// count-only one in this process, timing the app alone). A short program
// (hello world) gives the fixed cost; a program with tens of thousands of
// spans (the Cecil reader) the cost per span beyond it. `clrotel run`
// prints every span (--max-spans 0) to a file, as a user redirecting its
// standard error would. Runs are interleaved in rounds, and each round's
// run is compared with that round's app-alone run.

// runcostSummaryRE reads clrotel run's summary line.
var runcostSummaryRE = regexp.MustCompile(`clrotel: (\d+) spans? in \d+ traces?`)

type runcostWorkload struct {
	name string
	args []string // after the dotnet host
}

// runcostWorkloads: hello world (built by run), and the Cecil reader over
// mcs.exe when the real programs are installed.
func runcostWorkloads(work, version, rc string) ([]runcostWorkload, error) {
	ws := []runcostWorkload{{"hello world", []string{filepath.Join(work, "Hello.exe")}}}
	ps, err := realprogs(work, version, rc)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: clrotel run: %v: the Cecil reader is left out\n", err)
		return ws, nil
	}
	for _, p := range ps {
		if strings.HasPrefix(p.name, "Cecil reader") && p.skip == "" {
			ws = append(ws, runcostWorkload{p.name, p.args})
		}
	}
	return ws, nil
}

// runcostEnv returns what `cli env` sets to attach lib and export to
// endpoint, as KEY=value strings.
func runcostEnv(cli, lib, endpoint string) ([]string, error) {
	out, err := exec.Command(cli, "env", "--shell", "env-file", "--lib", lib, "--endpoint", endpoint).Output()
	if err != nil {
		return nil, fmt.Errorf("%s env: %w", cli, err)
	}
	var env []string
	for _, line := range strings.Split(string(out), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			env = append(env, line)
		}
	}
	return append(env, "OTEL_EXPORTER_OTLP_INSECURE=true"), nil
}

// runcostAlone times the app attached with `cli env`, exporting to a
// count-only receiver, and returns its wall time and the spans received.
func runcostAlone(host, cli, lib, dir string, args, base []string) (time.Duration, int, error) {
	sink, err := otlpsink.Listen("127.0.0.1:0", otlpsink.WithCountOnly())
	if err != nil {
		return 0, 0, err
	}
	defer sink.Close()
	env, err := runcostEnv(cli, lib, sink.Endpoint())
	if err != nil {
		return 0, 0, err
	}
	cmd := exec.Command(host, args...)
	cmd.Env = append(append([]string{}, base...), env...)
	cmd.Dir = dir
	cmd.Stdout = io.Discard
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	sink.Close()
	if _, ok := err.(*exec.ExitError); ok {
		err = nil // an app's own exit status is its business
	}
	return wall, sink.Count(), err
}

// runcostRun times `cli run --max-spans 0` of the app, its trees going to
// a file, and returns its wall time and the spans its summary counted.
func runcostRun(host, cli, lib, dir string, args, base []string) (time.Duration, int, error) {
	f, err := os.CreateTemp("", "clrotel-bench-run-")
	if err != nil {
		return 0, 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	cmd := exec.Command(cli, append([]string{"run", "--lib", lib, "--max-spans", "0", "--", host}, args...)...)
	cmd.Env = base
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = io.Discard, f
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if _, ok := err.(*exec.ExitError); ok {
		err = nil
	}
	if err != nil {
		return 0, 0, err
	}
	spans := -1
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, 0, err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		if m := runcostSummaryRE.FindSubmatch(sc.Bytes()); m != nil {
			spans, _ = strconv.Atoi(string(m[1]))
		}
	}
	if spans < 0 {
		return 0, 0, fmt.Errorf("clrotel run printed no summary line")
	}
	return wall, spans, nil
}

// runRunCost runs the section and returns its table and raw lines.
func runRunCost(host, work, version, rc, cli, lib string, rounds int, base []string) (table, raw string, err error) {
	ws, err := runcostWorkloads(work, version, rc)
	if err != nil {
		return "", "", err
	}
	var tb, rb bytes.Buffer
	fmt.Fprintf(&tb, "\nclrotel run's own cost, .NET %s, %s: medians of %d interleaved rounds; \"added\": clrotel run --max-spans 0 (every span printed, to a file)\nagainst the app alone, attached with clrotel env and exporting to a receiver of its own, in the same round\n\n", version, time.Now().UTC().Format("2006-01-02"), rounds)
	w := tabwriter.NewWriter(&tb, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "workload\tspans\tapp alone\tclrotel run\tadded\t")
	added := make([][]time.Duration, len(ws))
	spans := make([][]int, len(ws))
	for i, wl := range ws {
		var alone, run []time.Duration
		for r := 0; r < rounds; r++ {
			var a, b time.Duration
			var n int
			// Alternate which goes first, so that drift touches both alike.
			for k := 0; k < 2; k++ {
				if (k+r)%2 == 0 {
					if a, _, err = runcostAlone(host, cli, lib, filepath.Dir(wl.args[0]), wl.args, base); err != nil {
						return "", "", fmt.Errorf("%s alone: %w", wl.name, err)
					}
				} else if b, n, err = runcostRun(host, cli, lib, filepath.Dir(wl.args[0]), wl.args, base); err != nil {
					return "", "", fmt.Errorf("%s under clrotel run: %w", wl.name, err)
				}
			}
			alone, run = append(alone, a), append(run, b)
			added[i] = append(added[i], b-a)
			spans[i] = append(spans[i], n)
			fmt.Fprintf(&rb, "runcost %s round %d: alone %v, clrotel run %v (%d spans)\n", wl.name, r, a, b, n)
			fmt.Fprintf(os.Stderr, "bench: clrotel run: %s round %d/%d\n", wl.name, r+1, rounds)
		}
		fmt.Fprintf(w, "%s\t%d\t%v\t%v\t%+v\t\n", wl.name, medianInt(spans[i]), medianDur(alone).Round(time.Millisecond),
			medianDur(run).Round(time.Millisecond), medianDur(added[i]).Round(time.Millisecond))
	}
	w.Flush()
	fixed := medianDur(added[0])
	fmt.Fprintf(&tb, "\nfixed cost (hello world's added time): %v (target <= 50ms)\n", fixed.Round(time.Millisecond))
	if len(ws) > 1 {
		// Per round: the big program's added time beyond the fixed cost,
		// over its spans.
		var per []time.Duration
		for r, d := range added[1] {
			if n := spans[1][r] - spans[0][min(r, len(spans[0])-1)]; n > 0 {
				per = append(per, (d-fixed)/time.Duration(n))
			}
		}
		if len(per) > 0 {
			fmt.Fprintf(&tb, "per span (%s's added time beyond the fixed cost, over its spans): %v (target <= 10µs)\n", ws[1].name, medianDur(per))
		}
	}
	return tb.String(), rb.String(), nil
}

func medianInt(v []int) int {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
