package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
)

// version is set at build time: go build -ldflags "-X main.version=v1.2.3".
var version = "dev"

// errUsage reports a command-line mistake, already explained to the user;
// the command exits with status 2.
var errUsage = errors.New("usage error")

// A command is one clrotel subcommand. run returns the exit status, and an
// error to print (prefixed with the command's name) if any.
type command struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) (int, error)
}

func commands() []command {
	return []command{
		{"env", "print the environment variables that attach the profiler", runEnv},
		{"run", "run a command with the profiler attached and print its traces", runRun},
		{"config", "check a configuration file (config validate FILE)", runConfig},
		{"sampling", "print a service's remote sampling strategy (sampling show)", runSampling},
		{"version", "print the version", runVersion},
	}
}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

// dispatch runs the command that args name and returns the exit status.
func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(stdout)
		return 0
	case "help":
		if len(args) > 1 {
			return dispatch([]string{args[1], "--help"}, stdout, stderr)
		}
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

func usage(w io.Writer) {
	fmt.Fprint(w, `clrotel traces the methods of .NET processes as OpenTelemetry spans.

Usage:
  clrotel <command> [flags] [arguments]

Commands:
`)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Examples:
  clrotel run -- dotnet Shop.dll
  eval "$(clrotel env --endpoint http://127.0.0.1:4317 --service shop)"

Run 'clrotel help <command>' or 'clrotel <command> --help' for more.
`)
}

// parseFlags parses args into fs. On -h or --help it prints the command's
// full help (text, then the flags) to stdout and returns flag.ErrHelp; on a
// mistake it returns errUsage, the flag package having told stderr.
func parseFlags(fs *flag.FlagSet, args []string, text string, stdout, stderr io.Writer) error {
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	err := fs.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, text)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
		return flag.ErrHelp
	}
	fmt.Fprintf(stderr, "Run 'clrotel %s --help' for usage.\n", fs.Name())
	return errUsage
}

// usageError tells stderr what is wrong with a command line, and how to
// get help; it returns errUsage.
func usageError(stderr io.Writer, name, format string, args ...any) error {
	fmt.Fprintf(stderr, "clrotel %s: %s\nRun 'clrotel %s --help' for usage.\n", name, fmt.Sprintf(format, args...), name)
	return errUsage
}

// errUsageOr keeps flag.ErrHelp (exit status 0) and turns any other error
// from fs.Parse into errUsage (the flag package has printed it).
func errUsageOr(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	return errUsage
}

const versionHelp = `Usage: clrotel version

Prints clrotel's version, the Go version it was built with, and its
platform:

  $ clrotel version
  clrotel v1.2.3 (go1.26.0, linux/amd64)
`

func runVersion(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	if err := parseFlags(fs, args, versionHelp, stdout, stderr); err != nil {
		return 2, err
	}
	if fs.NArg() > 0 {
		return 2, usageError(stderr, "version", "unexpected argument %q", fs.Arg(0))
	}
	fmt.Fprintf(stdout, "clrotel %s (%s, %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return 0, nil
}
