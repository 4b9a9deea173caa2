package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/clrotel/clrotel/config"
)

// runConfig handles `clrotel config validate FILE`.
func runConfig(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("config", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, `Usage: clrotel config validate FILE

Checks a clrotel configuration file (the one CLROTEL_CONFIG names): YAML
syntax, unknown keys, types and values. Every problem of the file is
printed, in line order, as FILE:LINE: KEY: want WHAT IT TAKES; found WHAT
IS THERE. Exits 0 when the file is valid, 1 if not.
`)
	}
	if err := fs.Parse(args); err != nil {
		return 2, errUsageOr(err)
	}
	if fs.NArg() != 2 || fs.Arg(0) != "validate" {
		fs.Usage()
		return 2, errUsage
	}
	path := fs.Arg(1)
	data, err := os.ReadFile(path)
	if err != nil {
		return 1, err
	}
	if _, err := config.ParseFile(path, data); err != nil {
		fmt.Fprintln(stderr, err)
		return 1, nil
	}
	fmt.Fprintf(stdout, "%s: ok\n", path)
	return 0, nil
}
