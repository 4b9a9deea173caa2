package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

// The service benchmark: examples/service (an HttpListener app, a few
// traced methods per request, values captured) in each of its shapes (a
// thread per core running a GetContext loop, an accept loop queuing to the
// thread pool, an async accept loop), its hosting code traced with the
// rest, loaded by wrk on loopback for a fixed time: untraced, with the
// defaults, and with every request traced (no CPU budget for the span
// work), in interleaved rounds. It reports requests per second and p50/p99
// latency as ratios of the untraced run, the service's CPU and the
// receiver's per request, the request traces received per second while
// wrk ran, and the calls the profiler dropped.

type serviceResult struct {
	rps      float64
	p50, p99 time.Duration
	dropped  int64
	folded   int64
	shed     int64 // traces shed whole at their root under load
	spans    int
	// traces received while the load ran, per second (requests traced)
	tracesPerSec float64
	// the service process's CPU (user+system) while the load ran, per
	// request served: steadier than requests/s on a shared machine
	cpuPerReq time.Duration
	// the receiver's CPU while the load ran, per request served: the
	// bench's own process, in which the receiver runs, on the same cores
	recvPerReq time.Duration
}

// serviceModes are the runs of each round: untraced, then traced with the
// defaults, then with every request traced.
var serviceModes = []struct {
	name   string
	traced bool
	env    []string
}{
	{"untraced", false, nil},
	{"clrotel defaults", true, nil},
	{"every request traced", true, []string{"CLROTEL_EXPORT_CPU_PERCENT=0", "OTEL_TRACES_SAMPLER=always_on"}},
}

var serviceShapes = []string{"threads", "pool", "async"} // -service-shapes

var (
	wrkRPS     = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	wrkP50     = regexp.MustCompile(`(?m)^\s+50%\s+([0-9.]+)(us|ms|s)\s*$`)
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
	var b strings.Builder
	fmt.Fprintf(&b, "\nService (examples/service, its hosting traced too, under wrk -t2 -c16, %d s per run, medians of %d interleaved rounds; ratios: the median of the rounds' ratios to the same round's untraced run, .NET %s)\n", seconds, pairs, version)
	if len(serviceEnv) > 0 {
		fmt.Fprintf(&b, "  traced runs with %s\n", strings.Join(serviceEnv, " "))
	}
	fmt.Fprintf(&b, "  %-8s %-22s %10s %8s %9s %9s %10s %9s %9s %10s %10s %9s %10s %12s\n", "shape", "", "requests/s", "ratio", "p50", "p99", "p99 ratio", "CPU/req", "CPU ratio", "recv/req", "traces/s", "dropped", "folded", "traces shed")
	for _, shape := range serviceShapes {
		runs := make([][]serviceResult, len(serviceModes))
		for i := 0; i < pairs; i++ {
			// Each round starts with another mode, so that no mode always
			// runs on a machine warmed (or slowed) by the one before.
			for k := range serviceModes {
				m := (k + i) % len(serviceModes)
				mode := serviceModes[m]
				r, err := serviceRun(host, exe, lib, base, shape, mode.traced, mode.env, seconds)
				for try := 1; errors.Is(err, errNotStarted) && try < serviceStarts; try++ {
					// The port was free when picked, not always when bound.
					fmt.Fprintf(os.Stderr, "bench: service %s, %s: %v; again on another port\n", shape, mode.name, err)
					r, err = serviceRun(host, exe, lib, base, shape, mode.traced, mode.env, seconds)
				}
				if err != nil {
					return "", fmt.Errorf("%s, %s: %w", shape, mode.name, err)
				}
				runs[m] = append(runs[m], r)
				fmt.Fprintf(os.Stderr, "bench: service %s round %d/%d, %s: %.0f req/s, p99 %v, %.0f traces/s\n", shape, i+1, pairs, mode.name, r.rps, r.p99, r.tracesPerSec)
			}
		}
		for m, mode := range serviceModes {
			r := medianService(runs[m])
			if !mode.traced {
				fmt.Fprintf(&b, "  %-8s %-22s %10.0f %8s %9v %9v %10s %9v %9s %10s %10s %9s %10s %12s\n", shape, mode.name, r.rps, "1.00", r.p50.Round(time.Microsecond), r.p99.Round(time.Microsecond), "1.00", r.cpuPerReq.Round(100*time.Nanosecond), "1.00", "", "", "", "", "")
				continue
			}
			rps, p99, cpu := serviceRatios(runs[m], runs[0])
			fmt.Fprintf(&b, "  %-8s %-22s %10.0f %8.2f %9v %9v %10.2f %9v %9.2f %10v %10.0f %9d %10d %12d\n", shape, mode.name, r.rps, rps,
				r.p50.Round(time.Microsecond), r.p99.Round(time.Microsecond), p99,
				r.cpuPerReq.Round(100*time.Nanosecond), cpu, r.recvPerReq.Round(100*time.Nanosecond), r.tracesPerSec, r.dropped, r.folded, r.shed)
		}
	}
	b.WriteString("  targets: with the defaults requests/s >= 0.90 of untraced and p99 <= 1.2x; with every request traced requests/s >= 0.70;\n")
	b.WriteString("  no call dropped (traces shed whole under load are not drops); traces/s: request traces received while wrk ran;\n")
	b.WriteString("  CPU/req: the service process's user+system CPU while wrk ran, per request served; recv/req: the receiver's\n")
	b.WriteString("  (this bench's process, decoding every request on the same cores), per request served\n")
	return b.String(), nil
}

// errNotStarted: the service exited, or did not say it listens within 30 s.
var errNotStarted = errors.New("service did not start")

// serviceStarts is how many times a run may start its service.
const serviceStarts = 3

func serviceRun(host, exe, lib string, base []string, shape string, traced bool, env []string, seconds int) (serviceResult, error) {
	var res serviceResult
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return res, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(host, exe, strconv.Itoa(port), shape)
	cmd.Env = append([]string{}, base...)
	var sink *otlpsink.Sink
	if traced {
		if sink, err = otlpsink.Listen("127.0.0.1:0", otlpsink.WithCountOnly()); err != nil {
			return res, err
		}
		defer sink.Close()
		cmd.Env = append(cmd.Env, "CORECLR_ENABLE_PROFILING=1", "CORECLR_PROFILER="+clrotelCLSID, "CORECLR_PROFILER_PATH="+lib,
			"CLROTEL_LOG_LEVEL=info", "OTEL_SERVICE_NAME=service", "OTEL_EXPORTER_OTLP_ENDPOINT="+sink.Endpoint())
		cmd.Env = append(append(cmd.Env, env...), serviceEnv...)
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
		said := false
		for sc.Scan() {
			if !said && strings.Contains(sc.Text(), "listening") {
				said = true
				ready <- true
			}
		}
		if !said {
			ready <- false // its output ended: it exited
		}
	}()
	started := false
	select {
	case started = <-ready:
	case <-time.After(30 * time.Second):
	}
	if !started {
		log, _ := os.ReadFile(stderr.Name())
		if len(log) > 2000 {
			log = log[len(log)-2000:]
		}
		return res, fmt.Errorf("%w; its stderr ends:\n%s", errNotStarted, log)
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/item?id=7", port)
	client := &http.Client{Timeout: 5 * time.Second}
	for i := 0; i < 3000; i++ {
		if resp, err := client.Get(url); err == nil {
			resp.Body.Close()
		}
	}
	// The traces received while wrk runs, the exporter's batch delay
	// (500 ms) after its start and end.
	tracesNow := func() int {
		if sink == nil {
			return 0
		}
		_, n := sink.MaxSpansPerTrace()
		return n
	}
	time.Sleep(time.Second)
	before := tracesNow()
	cpu0, err := processCPU(cmd.Process.Pid)
	if err != nil {
		return res, err
	}
	recv0, err := processCPU(os.Getpid())
	if err != nil {
		return res, err
	}
	wrk, err := exec.Command("wrk", "-t2", "-c16", fmt.Sprintf("-d%ds", seconds), "--latency", url).CombinedOutput()
	if err != nil {
		return res, fmt.Errorf("wrk: %v\n%s", err, wrk)
	}
	cpu1, err := processCPU(cmd.Process.Pid)
	if err != nil {
		return res, err
	}
	recv1, err := processCPU(os.Getpid())
	if err != nil {
		return res, err
	}
	time.Sleep(time.Second)
	res.tracesPerSec = float64(tracesNow()-before) / float64(seconds)
	if m := wrkRPS.FindSubmatch(wrk); m != nil {
		res.rps, _ = strconv.ParseFloat(string(m[1]), 64)
	}
	res.p50, res.p99 = wrkLatency(wrkP50, wrk), wrkLatency(wrkP99, wrk)
	if served := res.rps * float64(seconds); served > 0 {
		res.cpuPerReq = time.Duration(float64(cpu1-cpu0) / served)
		if sink != nil {
			res.recvPerReq = time.Duration(float64(recv1-recv0) / served)
		}
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

// wrkLatency reads one percentile of wrk's latency distribution.
func wrkLatency(re *regexp.Regexp, out []byte) time.Duration {
	m := re.FindSubmatch(out)
	if m == nil {
		return 0
	}
	v, _ := strconv.ParseFloat(string(m[1]), 64)
	unit := map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[string(m[2])]
	return time.Duration(v * float64(unit))
}

// serviceRatios is the median over the rounds of each round's requests/s,
// p99 and CPU per request over the same round's untraced run.
func serviceRatios(traced, untraced []serviceResult) (rps, p99, cpu float64) {
	get := func(rs []serviceResult, f func(serviceResult) float64) []float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		return v
	}
	ratio := func(f func(serviceResult) float64) float64 {
		r, _ := pairedRatios(get(traced, f), get(untraced, f))
		return r.median
	}
	return ratio(func(r serviceResult) float64 { return r.rps }),
		ratio(func(r serviceResult) float64 { return float64(r.p99) }),
		ratio(func(r serviceResult) float64 { return float64(r.cpuPerReq) })
}

func medianService(rs []serviceResult) serviceResult {
	if len(rs) == 0 {
		return serviceResult{}
	}
	out := rs[len(rs)/2]
	rps := make([]float64, len(rs))
	tps := make([]float64, len(rs))
	cpu := make([]time.Duration, len(rs))
	recv := make([]time.Duration, len(rs))
	p50 := make([]time.Duration, len(rs))
	p99 := make([]time.Duration, len(rs))
	for i, r := range rs {
		rps[i], tps[i], p50[i], p99[i], cpu[i], recv[i] = r.rps, r.tracesPerSec, r.p50, r.p99, r.cpuPerReq, r.recvPerReq
		out.dropped = max(out.dropped, r.dropped)
	}
	out.rps, out.tracesPerSec = median(rps), median(tps)
	out.p50, out.p99, out.cpuPerReq, out.recvPerReq = medianDur(p50), medianDur(p99), medianDur(cpu), medianDur(recv)
	return out
}

// processCPU is a process's user+system CPU so far, from /proc (all its
// threads, the profiler's included).
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("service CPU: %w", err)
	}
	// The fields after the command name, which may hold spaces, closed by ')'.
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("service CPU: short /proc/%d/stat", pid)
	}
	// utime and stime are fields 14 and 15 of stat(5), in clock ticks
	// (USER_HZ, 100 on Linux).
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("service CPU: /proc/%d/stat: %q %q", pid, f[11], f[12])
	}
	return time.Duration(ut+st) * 10 * time.Millisecond, nil
}
