package difftest

import (
	"fmt"
	"math/rand"
)

// settings are the profiler settings a campaign varies, each with the
// values it picks from (the first is the default or near it). Limits
// come from config/config.go.
var settings = []struct {
	name   string
	values []string
}{
	{"CLROTEL_RING_KB", []string{"512", "4", "16", "64", "4096"}},
	{"CLROTEL_MAX_DEPTH", []string{"16384", "16", "64"}},
	{"CLROTEL_MAX_THREADS", []string{"512", "1", "2"}},
	{"CLROTEL_MAX_STRING", []string{"256", "0", "1", "7", "100000"}},
	{"CLROTEL_MAX_ELEMENTS", []string{"16", "0", "1", "5000"}},
	{"CLROTEL_VALUE_DEPTH", []string{"3", "0", "1", "16"}},
	{"CLROTEL_MAX_FIELDS", []string{"16", "0", "1", "1024"}},
	{"CLROTEL_VALUE_BYTES", []string{"2048", "64", "300", "1048576"}},
	{"CLROTEL_MAX_ATTR_BYTES", []string{"16384", "256", "16777216"}},
	{"CLROTEL_FOLD", []string{"on", "off"}},
	{"CLROTEL_FOLD_MIN_CALLS", []string{"1000", "1", "10"}},
	{"CLROTEL_MAX_SPANS_PER_TRACE", []string{"10000", "0", "5", "100"}},
	// Traces not sampled, decided alike in every run (no ratio): Main's
	// alone, whose calls still fold and whose loops still serve; or all.
	{"CLROTEL_SAMPLING_RULES", []string{"", "*.Main=never"}},
	{"OTEL_TRACES_SAMPLER", []string{"parentbased_always_on", "always_off"}},
}

// Vary returns profiler settings picked from seed: each setting keeps
// its default half the time, else takes one of its edge values. The
// same seed gives the same settings.
func Vary(seed int64) []string {
	r := rand.New(rand.NewSource(seed ^ 0x5eed_c10e))
	var env []string
	for _, s := range settings {
		if r.Intn(2) == 0 {
			continue
		}
		env = append(env, fmt.Sprintf("%s=%s", s.name, s.values[1+r.Intn(len(s.values)-1)]))
	}
	return env
}
