package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/clrotel/clrotel/sampling/jaegerremote"
)

const samplingHelp = `Usage: clrotel sampling show --endpoint URL --service NAME [--raw]

Asks a Jaeger remote sampling endpoint (Jaeger v2's remote_sampling
extension, or the Collector's jaegerremotesampling extension, HTTP API on
port 5778) which strategy a service gets, and prints it as the
jaeger_remote sampler reads it: probabilistic, rate limiting, or per
operation (entries match a method's span name, else its
code.function.name). Check a strategies file with it before a rollout.
Exits 1 when the endpoint does not answer with a strategy.

Flags:
`

// runSampling handles `clrotel sampling show`.
func runSampling(args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 || (args[0] != "show" && args[0] != "-h" && args[0] != "--help" && args[0] != "-help") {
		return 2, usageError(stderr, "sampling", "want: sampling show --endpoint URL --service NAME")
	}
	if args[0] == "show" {
		args = args[1:]
	}
	fs := flag.NewFlagSet("sampling", flag.ContinueOnError)
	endpoint := fs.String("endpoint", "http://localhost:5778", "the HTTP sampling API (asked at `URL`?service=NAME)")
	service := fs.String("service", "", "the service `NAME` (OTEL_SERVICE_NAME)")
	raw := fs.Bool("raw", false, "also print the answer as received")
	timeout := fs.Duration("timeout", 5*time.Second, "how long to wait for the answer")
	if err := parseFlags(fs, args, samplingHelp, stdout, stderr); err != nil {
		return 2, err
	}
	if *service == "" || fs.NArg() > 0 {
		return 2, usageError(stderr, "sampling", "--service NAME is required, and nothing else")
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	body, err := jaegerremote.HTTPFetcher{Endpoint: *endpoint}.Fetch(ctx, *service)
	if err != nil {
		return 1, fmt.Errorf("%s: %w", *endpoint, err)
	}
	if *raw {
		fmt.Fprintf(stdout, "%s\n", body)
	}
	st, err := jaegerremote.Parse(body)
	if err != nil {
		return 1, fmt.Errorf("%s: %w", *endpoint, err)
	}
	fmt.Fprintf(stdout, "service %s: %s", *service, jaegerremote.Describe(st))
	return 0, nil
}
