package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"go.yaml.in/yaml/v3"

	"github.com/clrotel/clrotel/config"
	"github.com/clrotel/clrotel/shaping"
)

// runConfig handles `clrotel config validate FILE`.
func runConfig(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("config", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, `Usage: clrotel config validate FILE

Checks a clrotel configuration file (the one CLROTEL_CONFIG names): YAML
syntax, unknown keys, types and values; or the no-code targets of an
OpenTelemetry configuration file (the one OTEL_CONFIG_FILE names), each
problem with its line and column. Every problem of the file is
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
	if noCodeFile(data) {
		rules, err := shaping.Parse(path, data)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1, nil
		}
		fmt.Fprintf(stdout, "%s: ok (an OpenTelemetry configuration file: %d no-code targets)\n", path, len(rules.Targets))
		return 0, nil
	}
	if _, err := config.ParseFile(path, data); err != nil {
		fmt.Fprintln(stderr, err)
		return 1, nil
	}
	fmt.Fprintf(stdout, "%s: ok\n", path)
	return 0, nil
}

// noCodeFile reports whether data is an OpenTelemetry configuration file
// (the one OTEL_CONFIG_FILE names: file_format, or the no-code section at
// its top level) rather than clrotel's own.
func noCodeFile(data []byte) bool {
	var top map[string]any
	if yaml.Unmarshal(data, &top) != nil {
		return false
	}
	_, format := top["file_format"]
	_, instr := top["instrumentation/development"]
	return format || instr
}
