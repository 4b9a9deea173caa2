package main

import (
	"flag"
	"fmt"
	"io"
)

// runConfig handles `clrotel config validate FILE`. The configuration file
// (CLROTEL_CONFIG) is not implemented yet: the profiler reads CLROTEL_*
// variables only, so validation reports that instead of pretending.
func runConfig(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("config", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: clrotel config validate FILE\n\nChecks a clrotel configuration file.\n")
	}
	if err := fs.Parse(args); err != nil {
		return 2, errUsageOr(err)
	}
	if fs.NArg() != 2 || fs.Arg(0) != "validate" {
		fs.Usage()
		return 2, errUsage
	}
	return 1, fmt.Errorf("configuration files are not supported yet; configure with CLROTEL_* variables (see README)")
}
