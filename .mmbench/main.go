// Throwaway: start-up and fold-heavy cost of method metrics on and off.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/clrotel/clrotel/otlpsink"
)

func main() {
	lib, host, rounds := os.Args[1], os.Args[2], 21
	args := os.Args[3:]
	sink, err := otlpsink.Listen("127.0.0.1:0", otlpsink.WithCountOnly())
	if err != nil {
		panic(err)
	}
	res := map[string][][2]float64{}
	for r := 0; r < rounds; r++ {
		for _, m := range []string{"off", "on"} {
			cmd := exec.Command(host, args...)
			cmd.Env = append(os.Environ(), "CORECLR_ENABLE_PROFILING=1", "CORECLR_PROFILER={8A4C3E5B-2F61-4D7A-9C0E-5B1D7E3F6A21}",
				"CORECLR_PROFILER_PATH="+lib, "OTEL_EXPORTER_OTLP_ENDPOINT="+sink.Endpoint(), "CLROTEL_METRICS="+m)
			start := time.Now()
			out, err := cmd.CombinedOutput()
			wall := time.Since(start)
			if err != nil || strings.Contains(string(out), "clrotel") {
				fmt.Println(err, string(out))
			}
			ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			res[m] = append(res[m], [2]float64{float64(wall.Microseconds()) / 1000, float64(cpu.Microseconds()) / 1000})
		}
	}
	for _, m := range []string{"off", "on"} {
		var w, c []float64
		for _, x := range res[m] {
			w, c = append(w, x[0]), append(c, x[1])
		}
		sort.Float64s(w)
		sort.Float64s(c)
		fmt.Printf("metrics=%s  wall median %.1f ms (p25 %.1f p75 %.1f)  cpu median %.1f ms (p25 %.1f p75 %.1f)\n", m, w[len(w)/2], w[len(w)/4], w[3*len(w)/4], c[len(c)/2], c[len(c)/4], c[3*len(c)/4])
	}
	fmt.Println("metric requests", sink.MetricRequests())
}
