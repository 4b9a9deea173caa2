package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/clrotel/clrotel/completing"
	"github.com/clrotel/clrotel/internal/exitstatus"
	"github.com/clrotel/clrotel/otlpsink"
)

// quietPeriod is how long the built-in receiver must hear nothing, after
// the command exited, before its traces are printed, while a client is
// still connected to it (a process the command left running); once none
// is, they are printed at once (otlpsink.Sink.WaitClientsGone).
const quietPeriod = 300 * time.Millisecond

// forwardedSignals are passed on to the command while it runs.
var forwardedSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// receiverVars are the inherited variables that would send the command's
// spans away from the built-in receiver, or have it talk TLS to it.
var receiverVars = []string{
	"OTEL_TRACES_EXPORTER",
	"OTEL_EXPORTER_OTLP_INSECURE",
	"OTEL_EXPORTER_OTLP_TRACES_INSECURE",
	"OTEL_EXPORTER_OTLP_CERTIFICATE",
	"OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE",
	"OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE",
	"OTEL_EXPORTER_OTLP_TRACES_CLIENT_CERTIFICATE",
	"OTEL_EXPORTER_OTLP_CLIENT_KEY",
	"OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY",
	"OTEL_EXPORTER_OTLP_METRICS_INSECURE",
	"OTEL_EXPORTER_OTLP_METRICS_CERTIFICATE",
	"OTEL_EXPORTER_OTLP_METRICS_CLIENT_CERTIFICATE",
	"OTEL_EXPORTER_OTLP_METRICS_CLIENT_KEY",
}

// methodKeys are the attributes every span of a method carries alike; the
// printed tree leaves them out (a root shows its thread.id beside it).
func methodKeys() []string {
	return []string{"code.function.name", "dotnet.assembly", "dotnet.method.return_type", "dotnet.module", "thread.id"}
}

const runHelp = `Usage: clrotel run [flags] [--] command [args...]

Runs command with the clrotel profiler attached: the variables that
'clrotel env' prints are added to the current environment, and standard
input, output and error are the command's.

Without --endpoint, the command's spans go to an OTLP receiver inside
clrotel, which prints them to standard error as trees, one per trace,
with their attributes, events and errors. A trace is printed once it is
complete (its root arrived, then 2 s without a span for it), but nothing
before the command has run 3 s: a short command's traces are all printed
at its exit. When the command has exited and every process that sent
spans has gone (or, for one still running, the spans stopped coming; at
most --wait), clrotel prints the traces left, then a summary line and a
table of the busiest methods (calls, p50, p99, folded or not; folded
methods are counted by their method metrics); --out saves the spans as
OTLP/JSON too. With --endpoint the spans go there instead, and nothing
is printed.

clrotel forwards SIGINT, SIGTERM and SIGHUP to the command, and exits with
its exit status (128+N if signal N ended it). A signal after the command
exited cuts the wait for spans short.

Examples:
  clrotel run -- dotnet Shop.dll
  clrotel run --service shop --out spans.json -- dotnet Shop.dll arg1
  clrotel run --endpoint http://127.0.0.1:4317 --service shop -- dotnet Shop.dll

Flags (one or two dashes, before the command):
`

type runFlags struct {
	attachFlags
	out      string
	quiet    bool
	wait     time.Duration
	maxSpans int
}

func (f *runFlags) register(fs *flag.FlagSet) {
	f.attachFlags.register(fs)
	fs.StringVar(&f.out, "out", "", "also save the spans received to `file` as OTLP/JSON (not with --endpoint)")
	fs.BoolVar(&f.quiet, "quiet", false, "do not print the traces")
	fs.DurationVar(&f.wait, "wait", 5*time.Second, "wait at most `duration` for the last spans after the command exited")
	fs.IntVar(&f.maxSpans, "max-spans", 1000, "print at most `n` spans (0: all)")
}

func runRun(args []string, stdout, stderr io.Writer) (int, error) {
	var f runFlags
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	f.register(fs)
	if err := parseFlags(fs, args, runHelp, stdout, stderr); err != nil {
		return 2, err
	}
	argv := fs.Args()
	switch {
	case len(argv) == 0:
		return 2, usageError(stderr, "run", "no command given (clrotel run [flags] -- command [args...])")
	case f.out != "" && f.endpoint != "":
		return 2, usageError(stderr, "run", "--out saves what the built-in receiver got; it cannot go with --endpoint")
	case f.wait < 0:
		return 2, usageError(stderr, "run", "invalid --wait %v: must not be negative", f.wait)
	case f.maxSpans < 0:
		return 2, usageError(stderr, "run", "invalid --max-spans %d: must not be negative", f.maxSpans)
	}
	if err := f.check(); err != nil {
		return 2, usageError(stderr, "run", "%v", err)
	}
	if err := f.resolve(os.Executable); err != nil {
		return 1, err
	}
	if _, err := os.Stat(f.lib); err != nil {
		return 1, fmt.Errorf("profiler library: %w (build it with 'make build', or pass --lib)", err)
	}
	environ := os.Environ()
	for _, w := range disabledWarnings(environ) {
		fmt.Fprintf(stderr, "clrotel run: warning: %s\n", w)
	}

	drop := shadowingNames()
	var extra []envVar
	var sink *otlpsink.Sink
	var live *liveReport
	if f.endpoint == "" {
		if _, ok := stderr.(*os.File); !ok {
			// The command's output and the trees printed while it runs
			// reach stderr from two goroutines.
			stderr = &lockedWriter{w: stderr}
		}
		live = newLiveReport(stderr, f.maxSpans, f.quiet, completing.DefaultRule, time.Now())
		lessGC()
		opts := []otlpsink.Option{otlpsink.WithSpansFunc(func(s []otlpsink.Span) { live.add(time.Now(), s...) })}
		if f.out != "" {
			opts = append(opts, otlpsink.WithRawKept())
		}
		var err error
		if sink, err = otlpsink.Listen("127.0.0.1:0", opts...); err != nil {
			return 1, fmt.Errorf("starting the built-in receiver: %w", err)
		}
		defer sink.Close()
		f.endpoint = sink.Endpoint()
		extra = append(extra, envVar{name: "OTEL_EXPORTER_OTLP_INSECURE", value: "true"})
		drop = append(drop, receiverVars...)
	}
	env := childEnv(environ, append(f.vars(), extra...), drop)

	// Catch the signals before the command starts, so that none is lost.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, forwardedSignals...)
	defer signal.Stop(sigs)

	stopTicks := func() {}
	if live != nil {
		stopTicks = live.ticking()
	}
	code, err := runChild(argv, env, stdout, stderr, sigs)
	if err != nil || sink == nil {
		stopTicks()
		return code, err
	}

	ctx, cancel := context.WithTimeout(context.Background(), f.wait)
	defer cancel()
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-ctx.Done():
		}
	}()
	sink.WaitClientsGone(ctx, quietPeriod)
	stopTicks()
	if err := live.finish(sink.Points()); err != nil {
		return failed(code), err
	}
	if f.out != "" {
		if err := writeJSON(f.out, sink); err != nil {
			return failed(code), err
		}
	}
	return code, nil
}

// lessGC has the collector run less often than Go's default: the
// receiver's heap is spans held until their trace completes, and
// collecting it at every doubling cost about a fifth of the receiver's
// time; the memory limit bounds what that may cost in memory. A GOGC or
// GOMEMLIMIT in the environment wins.
func lessGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1 << 30)
	}
}

// lockedWriter serializes writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// failed returns the exit status for a run whose command exited with code
// but whose output could not be written: code, unless that says success.
func failed(code int) int {
	if code == 0 {
		return 1
	}
	return code
}

// childEnv returns environ without the variables named in drop or set,
// followed by the variables in set.
func childEnv(environ []string, set []envVar, drop []string) []string {
	names := slices.Clone(drop)
	for _, v := range set {
		names = append(names, v.name)
	}
	out := make([]string, 0, len(environ)+len(set))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(names, name) {
			out = append(out, kv)
		}
	}
	for _, v := range set {
		out = append(out, v.name+"="+v.value)
	}
	return out
}

// runChild runs argv with env, passing it the signals that arrive on sigs,
// and returns its exit status: its exit code, or 128+N if signal N ended
// it. A command that cannot start gives 127 if it was not found, else 126,
// as in a shell.
func runChild(argv, env []string, stdout, stderr io.Writer, sigs <-chan os.Signal) (int, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	// When stdout or stderr is not a file, a process the command left
	// behind could hold the pipe open; do not wait for it forever.
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
			return 127, err
		}
		return 126, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case s := <-sigs:
			_ = cmd.Process.Signal(s) // it may have exited meanwhile
		case err := <-done:
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) && !errors.Is(err, exec.ErrWaitDelay) {
				return 1, err
			}
			return exitstatus.Of(cmd.ProcessState), nil
		}
	}
}

// writeJSON saves what sink received to path as OTLP/JSON.
func writeJSON(path string, sink *otlpsink.Sink) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if err := sink.ExportJSON(f); err != nil {
		f.Close()
		return fmt.Errorf("--out %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	return nil
}
