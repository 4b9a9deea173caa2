package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

func runRun(args []string, stdout, stderr io.Writer) (int, error) {
	var a attachFlags
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	a.register(fs)
	out := fs.String("out", "", "also save the received spans to this file as OTLP JSON")
	quiet := fs.Bool("quiet", false, "do not print the trace tree")
	wait := fs.Duration("wait", 5*time.Second, "how long to wait for the last spans after the command exits")
	fs.Usage = func() {
		fmt.Fprintf(stderr, `Usage: clrotel run [flags] -- command [args...]

Runs a command with the profiler attached. Without --endpoint the spans go
to a receiver inside clrotel, and the traces are printed as a tree when the
command exits:

  clrotel run -- dotnet Shop.dll
  clrotel run --out spans.json -- dotnet Shop.dll
  clrotel run --endpoint http://collector:4317 --service shop -- dotnet Shop.dll

Exits with the command's exit code.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2, errUsageOr(err)
	}
	cmdArgs := fs.Args()
	if len(cmdArgs) == 0 {
		fmt.Fprintf(stderr, "clrotel run: no command given (clrotel run -- command args...)\n")
		return 2, errUsage
	}
	if err := a.validate(); err != nil {
		fmt.Fprintf(stderr, "clrotel run: %v\n", err)
		return 2, errUsage
	}
	if _, err := os.Stat(a.lib); err != nil {
		return 1, fmt.Errorf("profiler library: %w (build it with `make build`, or pass --lib)", err)
	}

	var sink *otlpsink.Sink
	env := os.Environ()
	if a.endpoint == "" {
		var err error
		sink, err = otlpsink.Listen("127.0.0.1:0")
		if err != nil {
			return 1, err
		}
		defer sink.Close()
		a.endpoint = sink.Endpoint()
		// The embedded receiver wins over any endpoint in the environment.
		env = withoutVars(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_INSECURE", "OTEL_TRACES_EXPORTER")
		env = append(env, "OTEL_EXPORTER_OTLP_INSECURE=true")
	}
	for _, kv := range a.vars() {
		env = append(withoutVars(env, kv[0]), kv[0]+"="+kv[1])
	}

	cmd := exec.Command(cmdArgs[0], cmdArgs[1:]...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	if err := cmd.Start(); err != nil {
		return 127, err
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	code := 0
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return 1, err
		}
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
	}
	if sink == nil {
		return code, nil
	}

	ctx, cancel := context.WithTimeout(context.Background(), *wait)
	defer cancel()
	spans := sink.WaitIdle(ctx, 300*time.Millisecond)
	if !*quiet {
		if err := otlpsink.WriteTree(stderr, spans, otlpsink.TreeOptions{Attrs: true, Hide: otlpsink.MethodKeys, MaxSpans: 2000}); err != nil {
			return code, err
		}
		traces := map[string]bool{}
		for _, s := range spans {
			traces[s.TraceID] = true
		}
		fmt.Fprintf(stderr, "clrotel: %d spans in %d traces\n", len(spans), len(traces))
	}
	if *out != "" {
		f, err := os.OpenFile(*out, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return code, err
		}
		if err := sink.ExportJSON(f); err != nil {
			f.Close()
			return code, err
		}
		if err := f.Close(); err != nil {
			return code, err
		}
	}
	return code, nil
}

// withoutVars drops the named variables from env.
func withoutVars(env []string, names ...string) []string {
	out := env[:0:0]
	for _, kv := range env {
		keep := true
		for _, n := range names {
			if strings.HasPrefix(kv, n+"=") {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}
