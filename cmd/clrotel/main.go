// Command clrotel attaches the clrotel profiler to .NET processes and shows
// what it traced.
//
//	clrotel env [flags]              print the exports that attach the profiler
//	clrotel run [flags] -- cmd ...   run a command traced, print its traces
//	clrotel config validate FILE     check a configuration file
//	clrotel version                  print the version
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
)

// version is set by the build (-ldflags -X main.version=...).
var version = "dev"

// clsid is the profiler's CLSID; profiler/callbacks.c holds the same value.
const clsid = "{8A4C3E5B-2F61-4D7A-9C0E-5B1D7E3F6A21}"

// errUsage marks a command-line mistake (exit code 2).
var errUsage = errors.New("usage")

type command struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) (int, error)
}

func commands() []command {
	return []command{
		{"env", "print the exports that attach the profiler to a process", runEnv},
		{"run", "run a command with the profiler attached and print its traces", runRun},
		{"config", "check a configuration file (config validate FILE)", runConfig},
		{"version", "print the version", runVersion},
	}
}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "clrotel traces .NET methods into OpenTelemetry.\n\nUsage:\n  clrotel <command> [flags]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'clrotel <command> --help' for a command's flags.\n")
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage(stdout)
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		code, err := c.run(args[1:], stdout, stderr)
		switch {
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.Is(err, errUsage):
			return 2
		case err != nil:
			fmt.Fprintf(stderr, "clrotel %s: %v\n", c.name, err)
			if code == 0 {
				code = 1
			}
		}
		return code
	}
	fmt.Fprintf(stderr, "clrotel: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func runVersion(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintf(stderr, "Usage: clrotel version\n\nPrints the version of clrotel.\n") }
	if err := fs.Parse(args); err != nil {
		return 2, errUsageOr(err)
	}
	fmt.Fprintf(stdout, "clrotel %s (%s, %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return 0, nil
}

// errUsageOr keeps flag.ErrHelp (exit 0) and turns other parse errors into
// errUsage (the flag package has already printed them).
func errUsageOr(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	return errUsage
}
