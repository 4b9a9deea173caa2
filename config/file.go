package config

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/clrotel/clrotel/sampling"
	"github.com/clrotel/clrotel/shaping"
)

// File is the YAML configuration file (CLROTEL_CONFIG). Every key is
// optional; a key it does not know is an error.
type File struct {
	Include  []string     `yaml:"include"`
	Exclude  []string     `yaml:"exclude"`
	Capture  fileCapture  `yaml:"capture"`
	Sampling fileSampling `yaml:"sampling"`
	Export   fileExport   `yaml:"export"`
	Limits   fileLimits   `yaml:"limits"`
	Fold     fileFold     `yaml:"fold"`
	Serving  fileServing  `yaml:"serving"`
	Async    *bool        `yaml:"async"`
	Log      fileLog      `yaml:"log"`
	Metrics  fileMetrics  `yaml:"metrics"`
	// NoCode is OpenTelemetry .NET's no-code section, as upstream's
	// instrumentation/development.dotnet.no_code (package shaping reads
	// it); noCode is what it read.
	NoCode yaml.Node      `yaml:"no_code"`
	noCode *shaping.Rules `yaml:"-"`
}

type fileMetrics struct {
	Enabled *bool    `yaml:"enabled"`
	Include []string `yaml:"include"`
}

type fileCapture struct {
	Enabled      *bool    `yaml:"enabled"`
	Exclude      []string `yaml:"exclude"`
	MaxString    *uint32  `yaml:"max_string"`
	MaxElements  *uint32  `yaml:"max_elements"`
	Depth        *uint32  `yaml:"depth"`
	MaxFields    *uint32  `yaml:"max_fields"`
	ValueBytes   *uint32  `yaml:"value_bytes"`
	MaxAttrBytes *uint32  `yaml:"max_attribute_bytes"`
	Redact       []string `yaml:"redact"`
	Statics      []string `yaml:"statics"`
}

type fileSampling struct {
	Sampler     *string    `yaml:"sampler"`
	Ratio       *float64   `yaml:"ratio"`
	RateLimit   *float64   `yaml:"rate_limit"`
	Burst       *uint32    `yaml:"burst"`
	MinDuration *string    `yaml:"min_duration"`
	Rules       []fileRule `yaml:"rules"`
	Remote      fileRemote `yaml:"remote"`
}

// fileRemote is the jaeger_remote samplers' OTEL_TRACES_SAMPLER_ARG.
type fileRemote struct {
	Endpoint            *string  `yaml:"endpoint"`
	PollingInterval     *string  `yaml:"polling_interval"`
	InitialSamplingRate *float64 `yaml:"initial_sampling_rate"`
}

type fileRule struct {
	Match  string `yaml:"match"`
	Sample string `yaml:"sample"` // always, never, or a ratio
}

type fileExport struct {
	QueueSize    *uint32 `yaml:"queue_size"`
	BatchSize    *uint32 `yaml:"batch_size"`
	Interval     *string `yaml:"interval"`
	ShutdownWait *string `yaml:"shutdown_wait"`
	CPUPercent   *uint32 `yaml:"cpu_percent"`
}

type fileLimits struct {
	MaxThreads       *uint32 `yaml:"max_threads"`
	RingKB           *uint32 `yaml:"ring_kb"`
	RingBurstKB      *uint32 `yaml:"ring_burst_kb"`
	MaxDepth         *uint32 `yaml:"max_depth"`
	MaxSpansPerTrace *uint32 `yaml:"max_spans_per_trace"`
	MaxValueSpans    *uint32 `yaml:"max_value_spans_per_trace"`
}

type fileFold struct {
	Enabled     *bool    `yaml:"enabled"`
	MinCalls    *uint32  `yaml:"min_calls"`
	MaxDuration *string  `yaml:"max_duration"`
	Exempt      []string `yaml:"exempt"`
	ReJIT       *bool    `yaml:"rejit"`
	ReJITPeriod *string  `yaml:"rejit_period"`
}

type fileServing struct {
	After    *string  `yaml:"after"`
	Children *uint32  `yaml:"children"`
	Entry    []string `yaml:"entry"`
}

type fileLog struct {
	Level *string `yaml:"level"`
	File  *string `yaml:"file"`
}

// FileError is a problem in a configuration file, with where it is.
type FileError struct {
	Path  string
	Line  int
	Col   int    // 0: the line's
	Field string // dotted key, e.g. sampling.ratio
	Msg   string
}

func (e *FileError) Error() string {
	var b strings.Builder
	b.WriteString(e.Path)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteString(":" + strconv.Itoa(e.Col))
		}
	}
	if e.Field != "" {
		b.WriteString(": " + e.Field)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

// FileErrors lists the problems found in a file: the first maxErrors, then
// how many more there are.
type FileErrors []*FileError

// sorted orders the problems by line (keeping the order of those on one
// line), the counts of problems left out folded into one last line, and
// keeps the first maxErrors.
func (es FileErrors) sorted(path string) FileErrors {
	more := 0
	var list FileErrors
	for _, e := range es {
		var n int
		if _, err := fmt.Sscanf(e.Msg, "and %d more problems", &n); err == nil && e.Line == 0 && e.Field == "" {
			more += n
			continue
		}
		list = append(list, e)
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Line < list[j].Line })
	if len(list) > maxErrors {
		more += len(list) - maxErrors
		list = list[:maxErrors]
	}
	return list.withMore(path, more)
}

// withMore ends the list with the number of problems left out of it.
func (es FileErrors) withMore(path string, more int) FileErrors {
	if more > 0 {
		es = append(es, &FileError{Path: path, Msg: fmt.Sprintf("and %d more problems", more)})
	}
	return es
}

func (es FileErrors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

var yamlLine = regexp.MustCompile(`line (\d+): (.*)`)

// Bounds on a configuration file, far beyond any real one. The YAML
// decoder compares each key of a mapping with every other key, reports each
// pair of equal keys (so n copies of one key make n(n-1)/2 errors), and
// does it again wherever an alias repeats the mapping, so that without
// these bounds a few kilobytes of one repeated key take it seconds and
// gigabytes. ParseFile checks them in one pass over the node tree before
// decoding.
const (
	maxFileBytes   = 256 << 10 // the whole file
	maxMappingKeys = 64        // keys in one mapping; the widest section has 10
	maxNodes       = 1 << 16   // keys and values, counting what aliases repeat
	maxErrors      = 100       // problems listed; past it they are counted
)

// ParseFile reads a configuration file and checks it: YAML syntax, unknown
// keys, types, and values. It reports the problems it finds (the first
// maxErrors, then how many more), each with the file, line and field.
func ParseFile(path string, data []byte) (*File, error) {
	if len(data) > maxFileBytes {
		return nil, FileErrors{{Path: path, Msg: fmt.Sprintf("%d bytes: a configuration file is at most %d", len(data), maxFileBytes)}}
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlErrors(path, err)
	}
	if errs := checkShape(path, &root); len(errs) > 0 {
		return nil, errs
	}
	// Every problem at once: keys and kinds first, from the document;
	// then the values of what decoded (a value of the wrong kind decodes
	// as absent, so it is reported once).
	keyErrs := checkKeys(path, &root)
	var f File
	if err := yaml.Unmarshal(data, &f); err != nil && len(keyErrs) == 0 {
		return nil, yamlErrors(path, err) // a problem checkKeys does not know
	}
	errs := append(keyErrs, f.validate(path, &root)...)
	if len(errs) > 0 {
		return nil, errs.sorted(path)
	}
	return &f, nil
}

// yamlErrors turns an error of the YAML package into FileErrors.
func yamlErrors(path string, err error) FileErrors {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		var out FileErrors
		for i, m := range te.Errors {
			if i == maxErrors {
				return out.withMore(path, len(te.Errors)-i)
			}
			fe := &FileError{Path: path, Msg: m}
			if sm := yamlLine.FindStringSubmatch(m); sm != nil {
				fe.Line, _ = strconv.Atoi(sm[1])
				fe.Msg = friendlyYAML(sm[2])
			}
			out = append(out, fe)
		}
		return out
	}
	fe := &FileError{Path: path, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	if sm := yamlLine.FindStringSubmatch(err.Error()); sm != nil {
		fe.Line, _ = strconv.Atoi(sm[1])
		fe.Msg = sm[2]
	}
	return FileErrors{fe}
}

// checkShape holds the document to maxMappingKeys and maxNodes, and reports
// each repeat of a key once, with the line of its first definition (in the
// decoder's words). It visits each node once: an alias adds the size found
// for its anchor, which YAML defines before any alias to it.
func checkShape(path string, root *yaml.Node) FileErrors {
	var errs FileErrors
	more := 0
	problem := func(line int, format string, args ...any) {
		if len(errs) == maxErrors {
			more++
			return
		}
		errs = append(errs, &FileError{Path: path, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	size := map[*yaml.Node]int{} // expanded size of each anchored node
	type key struct {
		kind  yaml.Kind
		value string
	}
	var walk func(n *yaml.Node) int
	walk = func(n *yaml.Node) int {
		if n.Kind == yaml.AliasNode {
			if n.Alias == nil {
				return 1
			}
			return min(1+size[n.Alias], maxNodes+1) // an anchor inside itself counts 0: the decoder refuses it
		}
		if n.Kind == yaml.MappingNode {
			if k := len(n.Content) / 2; k > maxMappingKeys {
				problem(n.Line, "a mapping of %d keys: at most %d", k, maxMappingKeys)
			} else {
				first := make(map[key]int, k)
				for i := 0; i+1 < len(n.Content); i += 2 {
					kn := n.Content[i]
					if line, ok := first[key{kn.Kind, kn.Value}]; ok {
						problem(kn.Line, "mapping key %q already defined at line %d", kn.Value, line)
					} else {
						first[key{kn.Kind, kn.Value}] = kn.Line
					}
				}
			}
		}
		total := 1
		for _, c := range n.Content {
			total = min(total+walk(c), maxNodes+1)
		}
		if n.Anchor != "" {
			size[n] = total
		}
		return total
	}
	if n := walk(root); n > maxNodes && len(errs) == 0 {
		problem(0, "more than %d keys and values, counting those that aliases repeat", maxNodes)
	}
	return errs.withMore(path, more)
}

// friendlyYAML rewords yaml's "field x not found in type config.fileY".
func friendlyYAML(msg string) string {
	if strings.HasPrefix(msg, "field ") && strings.Contains(msg, " not found in type ") {
		name := strings.TrimPrefix(msg[:strings.Index(msg, " not found")], "field ")
		return fmt.Sprintf("unknown key %q (a typo?)", name)
	}
	return msg
}

// lineOf finds the line of a dotted key in the document, 0 if absent.
func lineOf(root *yaml.Node, field string) int {
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := 0
	for _, part := range strings.Split(field, ".") {
		if i, err := strconv.Atoi(part); err == nil && n.Kind == yaml.SequenceNode {
			if i >= len(n.Content) {
				return line
			}
			n = n.Content[i]
			line = n.Line
			continue
		}
		if n.Kind != yaml.MappingNode {
			return line
		}
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == part {
				line = n.Content[i].Line
				n = n.Content[i+1]
				found = true
				break
			}
		}
		if !found {
			return line
		}
	}
	return line
}

func (f *File) validate(path string, root *yaml.Node) FileErrors {
	var errs FileErrors
	more := 0
	bad := func(field, format string, args ...any) {
		if len(errs) == maxErrors {
			more++
			return
		}
		errs = append(errs, &FileError{Path: path, Line: lineOf(root, field), Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	eachU32(f, func(field string, v *uint32) {
		r, ok := u32Ranges[field]
		if field == "limits.ring_kb" || !ok || v == nil || (*v >= r[0] && *v <= r[1]) {
			return // ring_kb: its own rule, below
		}
		bad(field, "want a whole number from %d to %d; found %d", r[0], r[1], *v)
	})
	dur := func(field string, v *string) {
		if v == nil {
			return
		}
		if d, err := time.ParseDuration(*v); err != nil || d < 0 {
			bad(field, "want a duration, e.g. 500ms or 2s; found %q", *v)
		}
	}
	patterns := func(field string, ps []string) {
		for i, p := range ps {
			if strings.TrimSpace(p) == "" {
				bad(fmt.Sprintf("%s.%d", field, i), "want a glob over Namespace.Type.Method; found an empty pattern")
			}
		}
	}
	patterns("include", f.Include)
	patterns("exclude", f.Exclude)
	patterns("capture.exclude", f.Capture.Exclude)
	patterns("serving.entry", f.Serving.Entry)
	patterns("metrics.include", f.Metrics.Include)
	for i, st := range f.Capture.Statics {
		if j := strings.LastIndexByte(st, '.'); j <= 0 || j == len(st)-1 {
			bad(fmt.Sprintf("capture.statics.%d", i), "want Namespace.Type.Field; found %q", st)
		}
	}
	if s := f.Sampling.Sampler; s != nil {
		if _, err := sampling.FromEnv(sampling.Default(), func(k string) (string, bool) {
			if k == "OTEL_TRACES_SAMPLER" {
				return *s, true
			}
			return "", false
		}); err != nil {
			bad("sampling.sampler", "want %s; found %q", sampling.SamplerNames, *s)
		}
	}
	if r := f.Sampling.Ratio; r != nil && (*r < 0 || *r > 1) {
		bad("sampling.ratio", "want a ratio from 0 to 1; found %v", *r)
	}
	if r := f.Sampling.RateLimit; r != nil && (*r < 0 || *r > 1e7) {
		bad("sampling.rate_limit", "want traces per second, 0 (no limit) to 1e7; found %v", *r)
	}
	if e := f.Sampling.Remote.Endpoint; e != nil {
		if _, err := sampling.ParseRemoteArg(sampling.Remote{}, "endpoint="+*e); err != nil {
			bad("sampling.remote.endpoint", "want the http:// or https:// URL of a Jaeger sampling API; found %q", *e)
		}
	}
	if v := f.Sampling.Remote.PollingInterval; v != nil {
		if d, err := time.ParseDuration(*v); err != nil || d < 100*time.Millisecond {
			bad("sampling.remote.polling_interval", "want a duration of at least 100ms, e.g. 60s; found %q", *v)
		}
	}
	if r := f.Sampling.Remote.InitialSamplingRate; r != nil && (*r < 0 || *r > 1) {
		bad("sampling.remote.initial_sampling_rate", "want a ratio from 0 to 1; found %v", *r)
	}
	dur("sampling.min_duration", f.Sampling.MinDuration)
	for i, r := range f.Sampling.Rules {
		if strings.TrimSpace(r.Match) == "" {
			bad(fmt.Sprintf("sampling.rules.%d.match", i), "want a glob over Namespace.Type.Method; found none")
		}
		if _, err := sampling.ParseRule("x=" + r.Sample); err != nil {
			bad(fmt.Sprintf("sampling.rules.%d.sample", i), "want always, never or a ratio from 0 to 1; found %q", r.Sample)
		}
	}
	dur("export.interval", f.Export.Interval)
	dur("export.shutdown_wait", f.Export.ShutdownWait)
	if v := f.Limits.RingKB; v != nil && (*v < 4 || *v > 1<<20 || *v&(*v-1) != 0) {
		bad("limits.ring_kb", "want a power of two from 4 to 1048576; found %d", *v)
	}
	if v := f.Limits.RingBurstKB; v != nil && (*v > 1<<21 || *v&(*v-1) != 0) {
		bad("limits.ring_burst_kb", "want 0 or a power of two up to 2097152; found %d", *v)
	}
	dur("fold.max_duration", f.Fold.MaxDuration)
	dur("fold.rejit_period", f.Fold.ReJITPeriod)
	dur("serving.after", f.Serving.After)
	if f.NoCode.Kind != 0 {
		rules, err := shaping.ParseSection(path, "no_code", &f.NoCode)
		var ses shaping.Errors
		if errors.As(err, &ses) {
			for _, se := range ses {
				if len(errs) == maxErrors {
					more++
					continue
				}
				errs = append(errs, &FileError{Path: path, Line: se.Line, Col: se.Col, Field: se.Key, Msg: se.Msg})
			}
		}
		f.noCode = rules
	}
	if l := f.Log.Level; l != nil {
		if _, ok := map[string]bool{"error": true, "warn": true, "info": true, "debug": true}[*l]; !ok {
			bad("log.level", "want error, warn, info or debug; found %q", *l)
		}
	}
	return errs.withMore(path, more)
}

// apply sets what the file sets on c.
func (f *File) apply(c *Config) {
	if f.Include != nil {
		c.Include = f.Include
	}
	if f.Exclude != nil {
		c.Exclude = f.Exclude
	}
	setU32 := func(dst *uint32, v *uint32) {
		if v != nil {
			*dst = *v
		}
	}
	if f.Capture.Enabled != nil {
		c.Capture = *f.Capture.Enabled
	}
	if f.Capture.Exclude != nil {
		c.CaptureExclude = f.Capture.Exclude
	}
	setU32(&c.MaxString, f.Capture.MaxString)
	setU32(&c.MaxElements, f.Capture.MaxElements)
	setU32(&c.ValueDepth, f.Capture.Depth)
	setU32(&c.MaxFields, f.Capture.MaxFields)
	setU32(&c.ValueBytes, f.Capture.ValueBytes)
	if f.Capture.MaxAttrBytes != nil {
		c.MaxAttrBytes = int(*f.Capture.MaxAttrBytes)
	}
	c.Redact = append(c.Redact, f.Capture.Redact...)
	c.Statics = append(c.Statics, f.Capture.Statics...)
	s := &c.Sampling
	if f.Sampling.Sampler != nil {
		s.Sampler = strings.ToLower(*f.Sampling.Sampler)
	}
	if f.Sampling.Ratio != nil {
		s.Ratio = *f.Sampling.Ratio
	}
	if f.Sampling.RateLimit != nil {
		s.RateLimit = *f.Sampling.RateLimit
	}
	if f.Sampling.Burst != nil {
		s.Burst = int(*f.Sampling.Burst)
	}
	if f.Sampling.MinDuration != nil {
		d, _ := time.ParseDuration(*f.Sampling.MinDuration)
		s.MinDurationNs = int64(d)
	}
	if f.Sampling.Remote.Endpoint != nil {
		s.Remote.Endpoint = *f.Sampling.Remote.Endpoint
	}
	if f.Sampling.Remote.PollingInterval != nil {
		s.Remote.PollingInterval, _ = time.ParseDuration(*f.Sampling.Remote.PollingInterval)
	}
	if f.Sampling.Remote.InitialSamplingRate != nil {
		s.Remote.InitialRate = *f.Sampling.Remote.InitialSamplingRate
	}
	for _, r := range f.Sampling.Rules {
		rule, _ := sampling.ParseRule(r.Match + "=" + r.Sample)
		s.Rules = append(s.Rules, rule)
	}
	if f.Export.QueueSize != nil {
		c.ExportQueue = int(*f.Export.QueueSize)
	}
	if f.Export.BatchSize != nil {
		c.ExportBatch = int(*f.Export.BatchSize)
	}
	if f.Export.Interval != nil {
		c.ExportInterval, _ = time.ParseDuration(*f.Export.Interval)
	}
	if f.Export.ShutdownWait != nil {
		c.ShutdownWait, _ = time.ParseDuration(*f.Export.ShutdownWait)
	}
	if f.Export.CPUPercent != nil {
		c.ExportCPU = float64(*f.Export.CPUPercent) / 100
	}
	setU32(&c.MaxThreads, f.Limits.MaxThreads)
	if f.Limits.RingKB != nil {
		c.RingBytes = *f.Limits.RingKB << 10
	}
	if f.Limits.RingBurstKB != nil {
		c.BurstBytes = *f.Limits.RingBurstKB << 10
	}
	setU32(&c.MaxDepth, f.Limits.MaxDepth)
	setU32(&c.MaxSpansPerTrace, f.Limits.MaxSpansPerTrace)
	setU32(&c.MaxValueSpansPerTrace, f.Limits.MaxValueSpans)
	if f.Fold.Enabled != nil {
		c.Fold.Enabled = *f.Fold.Enabled
	}
	if f.Async != nil {
		c.Async = *f.Async
	}
	if f.Fold.MinCalls != nil {
		c.Fold.MinCalls = uint64(*f.Fold.MinCalls)
	}
	if f.Fold.MaxDuration != nil {
		c.Fold.MaxDuration, _ = time.ParseDuration(*f.Fold.MaxDuration)
	}
	if f.Fold.Exempt != nil {
		c.Fold.Exempt = f.Fold.Exempt
	}
	if f.Fold.ReJIT != nil {
		c.Fold.ReJIT.Enabled = *f.Fold.ReJIT
	}
	if f.Fold.ReJITPeriod != nil {
		if d, _ := time.ParseDuration(*f.Fold.ReJITPeriod); d > 0 {
			c.Fold.ReJIT.Interval = d
		}
	}
	if f.Serving.After != nil {
		c.Serving.After, _ = time.ParseDuration(*f.Serving.After)
	}
	setU32(&c.Serving.Children, f.Serving.Children)
	if f.Serving.Entry != nil {
		c.Serving.Entry = f.Serving.Entry
	}
	if f.Log.Level != nil {
		c.LogLevel = *f.Log.Level
	}
	if f.Metrics.Enabled != nil {
		c.Metrics.Enabled = *f.Metrics.Enabled
	}
	if f.Metrics.Include != nil {
		c.Metrics.Include = f.Metrics.Include
	}
	if f.Log.File != nil {
		c.LogFile = *f.Log.File
	}
	if f.noCode != nil {
		c.NoCode = f.noCode
	}
}

// FilePath is the configuration file CLROTEL_CONFIG names, if it names
// one.
func FilePath(lookup func(string) (string, bool)) (string, bool) {
	path, ok := lookup("CLROTEL_CONFIG")
	return path, ok && strings.TrimSpace(path) != ""
}

// Load builds the configuration: defaults, then the file named by
// CLROTEL_CONFIG (if any), then the environment, which wins. A file with
// problems is not applied at all (the profiler runs on defaults and the
// environment); its errors are returned with the rest.
func Load(lookup func(string) (string, bool), readFile func(string) ([]byte, error)) (Config, error) {
	base := Default()
	var fileErr error
	if path, ok := FilePath(lookup); ok {
		if readFile == nil {
			readFile = os.ReadFile
		}
		data, err := readFile(path)
		if err != nil {
			fileErr = fmt.Errorf("config file: %w", err)
		} else if f, err := ParseFile(path, data); err != nil {
			fileErr = fmt.Errorf("config file %s is not used:\n%w", path, err)
		} else {
			f.apply(&base)
		}
	}
	c, envErr := fromEnv(base, lookup)
	return c, errors.Join(fileErr, envErr)
}
