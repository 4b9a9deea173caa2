package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clrotel/clrotel/folding"
	"github.com/clrotel/clrotel/methodmetrics"
	"github.com/clrotel/clrotel/sampling"
	"github.com/clrotel/clrotel/serving"
	"github.com/clrotel/clrotel/shaping"
	"github.com/clrotel/clrotel/shedding"
)

// Config is the profiler's configuration.
type Config struct {
	// Include and Exclude are glob patterns over Namespace.Type.Method. An
	// empty Include means "the app's own code": every method outside the
	// framework's modules and outside DefaultExclude.
	Include []string
	Exclude []string

	MaxThreads uint32 // capture slots: CLR threads traced at once
	RingBytes  uint32 // per-thread ring size, a power of two
	// BurstBytes is how far a thread's ring may grow past RingBytes while
	// the drainer catches up with a burst (address space reserved per
	// thread, backed only while used); at most RingBytes: no growth.
	BurstBytes uint32
	MaxDepth   uint32 // traced frames per thread kept on the shadow stack

	LogLevel string // error, warn, info, debug
	LogFile  string // also log here (created 0600); empty: stderr only

	// Value capture (arguments, this, return values).
	Capture        bool     // read values at all
	CaptureExclude []string // methods (globs) whose values are not read
	MaxString      uint32   // UTF-16 units kept per string
	MaxElements    uint32   // array elements kept
	ValueDepth     uint32   // object nesting followed
	MaxFields      uint32   // fields kept per object
	ValueBytes     uint32   // value bytes recorded per call (and per return)
	MaxAttrBytes   int      // bytes of value attributes per span
	Redact         []string // extra sensitive name fragments (added to the defaults)
	RedactPAN      bool     // strings holding a payment card number export as ***
	// Statics are static fields ("Namespace.Type.Field") recorded on the
	// spans of that type's methods, read at entry.
	Statics []string

	// Sampling: OTEL_TRACES_SAMPLER(_ARG), rules and the rate limit.
	Sampling sampling.Config

	// Folding of hot, short methods into their callers' spans, and the
	// span budget of a trace past which further calls fold (0: none).
	Fold             folding.Rule
	MaxSpansPerTrace uint32
	// MaxValueSpansPerTrace is how many spans of a trace (on one thread)
	// carry argument and return values; later ones are recorded without
	// (0: no limit).
	MaxValueSpansPerTrace uint32

	// Serving: which frames serve independent units of work, each a trace
	// of its own (CLROTEL_SERVING_AFTER_MS, CLROTEL_SERVING_CHILDREN,
	// CLROTEL_ENTRY; YAML serving).
	Serving serving.Rule

	// Async makes each async method one span, until its task completes,
	// with its resumes nested under it (CLROTEL_ASYNC, YAML async).
	Async bool
	// AsyncMaxPending bounds the async spans waiting for their task
	// (CLROTEL_ASYNC_MAX_PENDING); past it they end at once, counted.
	AsyncMaxPending uint32

	ExportQueue    int
	ExportBatch    int
	ExportInterval time.Duration
	ShutdownWait   time.Duration // bound on the final flush at exit

	// Metrics: a call counter and a duration histogram per method, for the
	// methods that fold and those named (CLROTEL_METRICS,
	// CLROTEL_METRICS_INCLUDE; YAML metrics), exported every
	// OTEL_METRIC_EXPORT_INTERVAL (read by the metric SDK).
	Metrics methodmetrics.Settings

	// NoCodeFile is the OpenTelemetry configuration file whose no-code
	// targets shape spans (OTEL_CONFIG_FILE, read when
	// OTEL_EXPERIMENTAL_FILE_BASED_CONFIGURATION_ENABLED is true; package
	// shaping reads it).
	NoCodeFile string
	// NoCode are the no-code targets of clrotel's own file (its no_code
	// key, upstream's schema); used with NoCodeFile's, and first.
	NoCode *shaping.Rules

	// ExportCPU is the share of one core the span work (decoding,
	// rendering, encoding) may take before new traces are shed whole at
	// their root (CLROTEL_EXPORT_CPU_PERCENT, YAML export.cpu_percent; 0:
	// never for CPU; a capture buffer half full still sheds).
	ExportCPU float64
}

// DefaultExclude leaves the framework out when no Include is given.
var DefaultExclude = []string{"System.*", "Microsoft.*", "Internal.*", "Interop.*", "<*"}

// Default returns the configuration with nothing set.
func Default() Config {
	return Config{
		MaxThreads:      512,
		RingBytes:       512 << 10,
		BurstBytes:      DefaultBurstBytes,
		MaxDepth:        16384,
		LogLevel:        "warn",
		Capture:         true,
		RedactPAN:       true,
		Async:           true,
		AsyncMaxPending: 65536,
		MaxString:       256,
		MaxElements:     16,
		ValueDepth:      3,
		MaxFields:       16,
		ValueBytes:      2048,
		MaxAttrBytes:    16 << 10,
		ExportQueue:     8192,
		ExportBatch:     2048,
		ExportInterval:  500 * time.Millisecond,
		ShutdownWait:    5 * time.Second,
		Sampling:        sampling.Default(),
		Fold:            folding.DefaultRule(),
		Serving:         serving.Default(),
		ExportCPU:       shedding.DefaultBudget,
		Metrics:         methodmetrics.DefaultSettings(),

		MaxSpansPerTrace:      10000,
		MaxValueSpansPerTrace: DefaultValueSpansPerTrace,
	}
}

// DefaultBurstBytes is the default CLROTEL_RING_BURST_KB: the real-program
// suite's bursts (tests/e2e/realprograms_test.go) needed up to 4 MiB of a
// thread's ring with the defaults on this project's 2-core machines.
const DefaultBurstBytes = 16 << 20

// DefaultValueSpansPerTrace is how many spans of a trace carry values by
// default: reading and rendering values is most of what a long batch
// trace costs, and a request's trace stays far below it
// (docs/user-guide.md, "Argument and return values").
const DefaultValueSpansPerTrace = 1000

// RingCapacity is a thread's ring capacity: RingBytes resident, and
// burst space up to BurstBytes (profiler/ring.h).
func (c Config) RingCapacity() uint32 { return max(c.RingBytes, c.BurstBytes) }

// SplitPatterns splits a comma-separated pattern list, trimming blanks.
func SplitPatterns(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// FromEnv applies CLROTEL_* variables to Default(). lookup is os.LookupEnv
// in production.
func FromEnv(lookup func(string) (string, bool)) (Config, error) {
	return fromEnv(Default(), lookup)
}

// fromEnv applies the environment to c: a variable that is set wins over
// what c holds (from the defaults or a file).
func fromEnv(c Config, lookup func(string) (string, bool)) (Config, error) {
	var errs []string
	str := func(key string, dst *string) {
		if v, ok := lookup(key); ok {
			*dst = strings.TrimSpace(v)
		}
	}
	u32 := func(key string, dst *uint32, min, max uint64) {
		v, ok := lookup(key)
		if !ok || strings.TrimSpace(v) == "" {
			return
		}
		n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 32)
		if err != nil || n < min || n > max {
			errs = append(errs, fmt.Sprintf("%s=%q: want a whole number from %d to %d", key, v, min, max))
			return
		}
		*dst = uint32(n)
	}
	// A switch: on (also 1, true, yes, or empty) or off (0, false, no).
	onOff := func(key string, dst *bool) {
		v, ok := lookup(key)
		if !ok {
			return
		}
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "1", "true", "on", "yes", "":
			*dst = true
		case "0", "false", "off", "no":
			*dst = false
		default:
			errs = append(errs, fmt.Sprintf("%s=%q: want on or off", key, v))
		}
	}
	if v, ok := lookup("CLROTEL_INCLUDE"); ok {
		c.Include = SplitPatterns(v)
	}
	if v, ok := lookup("CLROTEL_EXCLUDE"); ok {
		c.Exclude = SplitPatterns(v)
	}
	u32("CLROTEL_MAX_THREADS", &c.MaxThreads, 1, 65536)
	ringKB := c.RingBytes >> 10
	u32("CLROTEL_RING_KB", &ringKB, 4, 1<<20)
	if ringKB&(ringKB-1) != 0 {
		errs = append(errs, fmt.Sprintf("CLROTEL_RING_KB=%d: want a power of two", ringKB))
	} else {
		c.RingBytes = ringKB << 10
	}
	burstKB := c.BurstBytes >> 10
	u32("CLROTEL_RING_BURST_KB", &burstKB, 0, 1<<21)
	if burstKB&(burstKB-1) != 0 {
		errs = append(errs, fmt.Sprintf("CLROTEL_RING_BURST_KB=%d: want 0 or a power of two", burstKB))
	} else {
		c.BurstBytes = burstKB << 10
	}
	u32("CLROTEL_MAX_DEPTH", &c.MaxDepth, 16, 1<<20)
	str("CLROTEL_LOG_LEVEL", &c.LogLevel)
	switch c.LogLevel {
	case "error", "warn", "info", "debug":
	default:
		errs = append(errs, fmt.Sprintf("CLROTEL_LOG_LEVEL=%q: want error, warn, info or debug", c.LogLevel))
		c.LogLevel = "warn"
	}
	str("CLROTEL_LOG_FILE", &c.LogFile)
	onOff("CLROTEL_CAPTURE", &c.Capture)
	if v, ok := lookup("CLROTEL_CAPTURE_EXCLUDE"); ok {
		c.CaptureExclude = SplitPatterns(v)
	}
	if v, ok := lookup("CLROTEL_STATICS"); ok {
		c.Statics = SplitPatterns(v)
		for _, st := range c.Statics {
			if i := strings.LastIndexByte(st, '.'); i <= 0 || i == len(st)-1 {
				errs = append(errs, fmt.Sprintf("CLROTEL_STATICS: %q: want Namespace.Type.Field", st))
			}
		}
	}
	if v, ok := lookup("CLROTEL_REDACT"); ok {
		c.Redact = SplitPatterns(v)
	}
	onOff("CLROTEL_REDACT_PAN", &c.RedactPAN)
	u32("CLROTEL_MAX_STRING", &c.MaxString, 0, 1<<20)
	u32("CLROTEL_MAX_ELEMENTS", &c.MaxElements, 0, 1<<16)
	u32("CLROTEL_VALUE_DEPTH", &c.ValueDepth, 0, 16)
	u32("CLROTEL_MAX_FIELDS", &c.MaxFields, 0, 1024)
	u32("CLROTEL_VALUE_BYTES", &c.ValueBytes, 64, 1<<20)
	attrBytes := uint32(c.MaxAttrBytes)
	u32("CLROTEL_MAX_ATTR_BYTES", &attrBytes, 256, 1<<24)
	c.MaxAttrBytes = int(attrBytes)
	if sc, err := sampling.FromEnv(c.Sampling, lookup); err != nil {
		errs = append(errs, err.Error())
	} else {
		c.Sampling = sc
	}
	if v, ok := lookup("CLROTEL_SAMPLING_RULES"); ok {
		for _, r := range SplitPatterns(v) {
			rule, err := sampling.ParseRule(r)
			if err != nil {
				errs = append(errs, "CLROTEL_SAMPLING_RULES: "+err.Error())
				continue
			}
			c.Sampling.Rules = append(c.Sampling.Rules, rule)
		}
	}
	if v, ok := lookup("CLROTEL_RATE_LIMIT"); ok && strings.TrimSpace(v) != "" {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || f < 0 || f > 1e7 {
			errs = append(errs, fmt.Sprintf("CLROTEL_RATE_LIMIT=%q: want traces per second, a number from 0 (no limit) to 1e7", v))
		} else {
			c.Sampling.RateLimit = f
		}
	}
	if v, ok := lookup("CLROTEL_MIN_DURATION"); ok && strings.TrimSpace(v) != "" {
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil || d < 0 {
			errs = append(errs, fmt.Sprintf("CLROTEL_MIN_DURATION=%q: want a duration such as 100us or 1ms", v))
		} else {
			c.Sampling.MinDurationNs = int64(d)
		}
	}
	onOff("CLROTEL_ASYNC", &c.Async)
	onOff("CLROTEL_FOLD", &c.Fold.Enabled)
	minCalls := uint32(min(c.Fold.MinCalls, 1<<31))
	u32("CLROTEL_FOLD_MIN_CALLS", &minCalls, 1, 1<<31)
	c.Fold.MinCalls = uint64(minCalls)
	maxUS := uint32(c.Fold.MaxDuration / time.Microsecond)
	u32("CLROTEL_FOLD_MAX_US", &maxUS, 1, 1_000_000)
	c.Fold.MaxDuration = time.Duration(maxUS) * time.Microsecond
	onOff("CLROTEL_FOLD_REJIT", &c.Fold.ReJIT.Enabled)
	rejitMS := uint32(c.Fold.ReJIT.Interval / time.Millisecond)
	u32("CLROTEL_FOLD_REJIT_MS", &rejitMS, 1, 10_000)
	c.Fold.ReJIT.Interval = time.Duration(rejitMS) * time.Millisecond
	if v, ok := lookup("CLROTEL_FOLD_EXEMPT"); ok {
		c.Fold.Exempt = SplitPatterns(v)
	}
	onOff("CLROTEL_METRICS", &c.Metrics.Enabled)
	if v, ok := lookup("CLROTEL_METRICS_INCLUDE"); ok {
		c.Metrics.Include = SplitPatterns(v)
	}
	if v, ok := lookup("OTEL_METRIC_EXPORT_INTERVAL"); ok && strings.TrimSpace(v) != "" {
		// The metric SDK reads it (and ignores a bad one): said here.
		if n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 31); err != nil || n == 0 {
			errs = append(errs, fmt.Sprintf("OTEL_METRIC_EXPORT_INTERVAL=%q: want milliseconds, a whole number above 0 (the SDK's 60000 is used)", v))
		}
	}
	fileBased := false
	onOff("OTEL_EXPERIMENTAL_FILE_BASED_CONFIGURATION_ENABLED", &fileBased)
	if v, ok := lookup("OTEL_CONFIG_FILE"); ok && fileBased {
		c.NoCodeFile = strings.TrimSpace(v)
	}
	servingMS := uint32(c.Serving.After / time.Millisecond)
	u32("CLROTEL_SERVING_AFTER_MS", &servingMS, 0, 86_400_000)
	c.Serving.After = time.Duration(servingMS) * time.Millisecond
	u32("CLROTEL_SERVING_CHILDREN", &c.Serving.Children, 0, 1<<30)
	if v, ok := lookup("CLROTEL_ENTRY"); ok {
		c.Serving.Entry = SplitPatterns(v)
	}
	u32("CLROTEL_MAX_SPANS_PER_TRACE", &c.MaxSpansPerTrace, 0, 1<<30)
	u32("CLROTEL_MAX_VALUE_SPANS_PER_TRACE", &c.MaxValueSpansPerTrace, 0, 1<<30)
	u32("CLROTEL_ASYNC_MAX_PENDING", &c.AsyncMaxPending, 1, 1<<24)
	burst := uint32(c.Sampling.Burst)
	u32("CLROTEL_RATE_BURST", &burst, 1, 1<<20)
	c.Sampling.Burst = int(burst)
	// The batch span processor's standard variables tune clrotel's batching.
	queue, batch := uint32(c.ExportQueue), uint32(c.ExportBatch)
	u32("OTEL_BSP_MAX_QUEUE_SIZE", &queue, 1, 1<<24)
	u32("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", &batch, 1, 1<<20)
	c.ExportQueue, c.ExportBatch = int(queue), int(batch)
	delayMS := uint32(c.ExportInterval / time.Millisecond)
	u32("OTEL_BSP_SCHEDULE_DELAY", &delayMS, 1, 3_600_000)
	c.ExportInterval = time.Duration(delayMS) * time.Millisecond
	cpuPct := uint32(c.ExportCPU*100 + 0.5)
	u32("CLROTEL_EXPORT_CPU_PERCENT", &cpuPct, 0, 100)
	c.ExportCPU = float64(cpuPct) / 100
	if len(errs) > 0 {
		return c, fmt.Errorf("config: %s", strings.Join(errs, "; "))
	}
	return c, nil
}
