package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

// The service benchmark: examples/service (an HttpListener app, a few
// traced methods per request, values captured) loaded by wrk on loopback
// for a fixed time, untraced and traced with the defaults, in interleaved
// pairs. It reports requests per second and p99 latency, as ratios of the
// untraced run, and the calls the profiler dropped.

type serviceResult struct {
	rps     float64
	p99     time.Duration
	dropped int64
	folded  int64
	shed    int64 // traces shed whole at their root under load
	spans   int
}

var (
	wrkRPS     = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	wrkP99     = regexp.MustCompile(`(?m)^\s+99%\s+([0-9.]+)(us|ms|s)\s*$`)
	droppedAll = regexp.MustCompile(`(\d+) calls dropped`)
	foldedAll  = regexp.MustCompile(`(\d+) calls folded`)
	shedAll    = regexp.MustCompile(`\d+ calls shed \((\d+) traces\)`)
)

func serviceBench(host, work, version, lib string, base []string, seconds, pairs int) (string, error) {
	if _, err := exec.LookPath("wrk"); err != nil {
		return "\nService benchmark skipped: wrk not found (make deps installs it)\n", nil
	}
	if strings.HasPrefix(version, "3.") {
		// .NET Core 3.1's HttpListener needs OpenSSL 1.x (make deps puts
		// a 1.1 in .deps/openssl11; Debian has only 3).
		dir, err := filepath.Abs(filepath.Join(".deps", "openssl11"))
		if err != nil {
			return "", err
		}
		if _, err := os.Stat(filepath.Join(dir, "libssl.so.1.1")); err != nil {
			return "\nService benchmark skipped on .NET " + version + ": no OpenSSL 1.1 in .deps/openssl11 (make deps installs it)\n", nil
		}
		base = append(append([]string{}, base...), "LD_LIBRARY_PATH="+dir)
	}
	exe := filepath.Join(work, "Service.exe")
	if o, err := exec.Command("mcs", "-nologo", "-optimize+", "-r:System.dll", "-out:"+exe, "examples/service/Service.cs").CombinedOutput(); err != nil {
		return "", fmt.Errorf("mcs examples/service/Service.cs: %v\n%s", err, o)
	}
	rc := fmt.Sprintf(`{"runtimeOptions":{"framework":{"name":"Microsoft.NETCore.App","version":%q},"configProperties":{"System.Globalization.Invariant":true}}}`, version)
	if err := os.WriteFile(filepath.Join(work, "Service.runtimeconfig.json"), []byte(rc), 0o644); err != nil {
		return "", err
	}
	var untraced, traced []serviceResult
	for i := 0; i < pairs; i++ {
		for _, on := range []bool{false, true} {
			r, err := serviceRun(host, exe, lib, base, on, seconds)
			if err != nil {
				return "", err
			}
			if on {
				traced = append(traced, r)
			} else {
				untraced = append(untraced, r)
			}
			fmt.Fprintf(os.Stderr, "bench: service pair %d/%d, traced=%v: %.0f req/s, p99 %v\n", i+1, pairs, on, r.rps, r.p99)
		}
	}
	u, t := medianService(untraced), medianService(traced)
	var b strings.Builder
	fmt.Fprintf(&b, "\nService (examples/service under wrk -t2 -c16, %d s per run, medians of %d interleaved pairs, .NET %s)\n", seconds, pairs, version)
	if len(serviceEnv) > 0 {
		fmt.Fprintf(&b, "  traced runs with %s\n", strings.Join(serviceEnv, " "))
	}
	fmt.Fprintf(&b, "  %-34s %12s %10s %8s %10s %10s %10s %12s %10s\n", "", "requests/s", "p99", "ratio", "p99 ratio", "dropped", "folded", "traces shed", "spans")
	fmt.Fprintf(&b, "  %-34s %12.0f %10v %8s %10s %10s %10s %12s %10s\n", "untraced", u.rps, u.p99.Round(time.Microsecond), "1.00", "1.00", "", "", "", "")
	fmt.Fprintf(&b, "  %-34s %12.0f %10v %8.2f %10.2f %10d %10d %12d %10d\n", "clrotel defaults (values, export)", t.rps, t.p99.Round(time.Microsecond),
		t.rps/u.rps, float64(t.p99)/float64(u.p99), t.dropped, t.folded, t.shed, t.spans)
	b.WriteString("  targets: requests/s >= 0.90 of untraced, p99 <= 1.2x, no call dropped (traces shed whole under load are not drops)\n")
	return b.String(), nil
}

func serviceRun(host, exe, lib string, base []string, traced bool, seconds int) (serviceResult, error) {
	var res serviceResult
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return res, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(host, exe, strconv.Itoa(port))
	cmd.Env = append([]string{}, base...)
	var sink *otlpsink.Sink
	if traced {
		if sink, err = otlpsink.Listen("127.0.0.1:0", otlpsink.WithCountOnly()); err != nil {
			return res, err
		}
		defer sink.Close()
		cmd.Env = append(cmd.Env, "CORECLR_ENABLE_PROFILING=1", "CORECLR_PROFILER="+clrotelCLSID, "CORECLR_PROFILER_PATH="+lib,
			"CLROTEL_LOG_LEVEL=info", "OTEL_SERVICE_NAME=service", "OTEL_EXPORTER_OTLP_ENDPOINT="+sink.Endpoint(),
			// The host's dispatch loop is framework code in ASP.NET Core.
			"CLROTEL_EXCLUDE=Acme.Service.Hosting.*")
		cmd.Env = append(cmd.Env, serviceEnv...)
	}
	stderr, err := os.CreateTemp("", "service-stderr-")
	if err != nil {
		return res, err
	}
	defer os.Remove(stderr.Name())
	defer stderr.Close()
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return res, err
	}
	if err := cmd.Start(); err != nil {
		return res, err
	}
	defer cmd.Process.Kill()
	// Wait for "listening", then warm up the JIT and the folding rule.
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening") {
				ready <- true
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		return res, fmt.Errorf("service did not start")
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/item?id=7", port)
	client := &http.Client{Timeout: 5 * time.Second}
	for i := 0; i < 3000; i++ {
		if resp, err := client.Get(url); err == nil {
			resp.Body.Close()
		}
	}
	wrk, err := exec.Command("wrk", "-t2", "-c16", fmt.Sprintf("-d%ds", seconds), "--latency", url).CombinedOutput()
	if err != nil {
		return res, fmt.Errorf("wrk: %v\n%s", err, wrk)
	}
	if m := wrkRPS.FindSubmatch(wrk); m != nil {
		res.rps, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	if m := wrkP99.FindSubmatch(wrk); m != nil {
		v, _ := strconv.ParseFloat(string(m[1]), 64)
		unit := map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[string(m[2])]
		res.p99 = time.Duration(v * float64(unit))
	}
	if resp, err := client.Get(fmt.Sprintf("http://127.0.0.1:%d/quit", port)); err == nil {
		resp.Body.Close()
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Signal(syscall.SIGKILL)
		return res, fmt.Errorf("service did not exit")
	}
	if sink != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		sink.WaitIdle(ctx, 200*time.Millisecond)
		cancel()
		res.spans = sink.Count()
	}
	log, _ := os.ReadFile(stderr.Name())
	if m := droppedAll.FindSubmatch(log); m != nil {
		res.dropped, _ = strconv.ParseInt(string(m[1]), 10, 64)
	}
	if m := foldedAll.FindSubmatch(log); m != nil {
		res.folded, _ = strconv.ParseInt(string(m[1]), 10, 64)
	}
	if m := shedAll.FindSubmatch(log); m != nil {
		res.shed, _ = strconv.ParseInt(string(m[1]), 10, 64)
	}
	return res, nil
}

func medianService(rs []serviceResult) serviceResult {
	if len(rs) == 0 {
		return serviceResult{}
	}
	out := rs[len(rs)/2]
	rps := make([]float64, len(rs))
	p99 := make([]time.Duration, len(rs))
	for i, r := range rs {
		rps[i], p99[i] = r.rps, r.p99
		out.dropped = max(out.dropped, r.dropped)
	}
	sort.Float64s(rps)
	sort.Slice(p99, func(i, j int) bool { return p99[i] < p99[j] })
	out.rps, out.p99 = rps[len(rps)/2], p99[len(p99)/2]
	return out
}
