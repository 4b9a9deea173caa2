package methodmetrics

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// Attribute keys and values of the data points, the spanmetrics
// connector's.
const (
	KeyServiceName  = attribute.Key("service.name")
	KeySpanName     = attribute.Key("span.name")
	KeySpanKind     = attribute.Key("span.kind")
	KeyStatusCode   = attribute.Key("status.code")
	KeyFunctionName = attribute.Key("code.function.name")
	// KeyCountedUntil marks the series of a method re-JIT-compiled without
	// hooks: its counts stop there ("rejit").
	KeyCountedUntil = attribute.Key("clrotel.counted_until")

	SpanKindInternal = "SPAN_KIND_INTERNAL"
	SpanKindServer   = "SPAN_KIND_SERVER"
	StatusUnset      = "STATUS_CODE_UNSET"
	StatusError      = "STATUS_CODE_ERROR"
)

// Registry holds every method's series and produces the exported ones for
// the metric SDK's reader. Series are made as methods first end a span or
// fold; Observe and SetFolded take no lock.
type Registry struct {
	settings Settings
	service  string
	scope    instrumentation.Scope
	start    time.Time
	// Refresh, when set, is called at the start of each collection: it
	// reads the hooks' folded totals into the series (SetFolded).
	Refresh func()
	// OnActive, when set, is called once, from the goroutine that calls
	// Activate or makes the first series of a named method: from then on
	// there may be something to export (the export starts then, so that a
	// program in which nothing folds never pays for it).
	OnActive func()
	active   atomic.Bool

	mu     sync.Mutex
	byName map[string]*Series
	list   []*Series
}

// New returns an empty registry for s; service is the service.name of the
// data points (the resource's), scope names the metrics' producer.
func New(s Settings, service string, scope instrumentation.Scope) *Registry {
	if s.Namespace == "" {
		s.Namespace = DefaultNamespace
	}
	return &Registry{settings: s, service: service, scope: scope, start: time.Now(), byName: map[string]*Series{}}
}

// Settings returns the registry's settings.
func (r *Registry) Settings() Settings { return r.settings }

// spanKinds name the span kinds as OTLP numbers them, as the spanmetrics
// connector writes them.
var spanKinds = map[int]string{1: SpanKindInternal, 2: SpanKindServer, 3: "SPAN_KIND_CLIENT", 4: "SPAN_KIND_PRODUCER", 5: "SPAN_KIND_CONSUMER"}

// Series returns the series of the method with span name name,
// Namespace.Type.Method function and span kind kind (as OTLP numbers it; 0:
// internal), making it the first time. Callers keep it (otelbridge.Method
// does): this takes a lock.
func (r *Registry) Series(name, function string, kind int) *Series {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.byName[name]; ok {
		return s
	}
	k, ok := spanKinds[kind]
	if !ok {
		k = SpanKindInternal
	}
	s := &Series{Name: name, Function: function, kind: k, wanted: r.settings.Wanted(function)}
	r.byName[name] = s
	r.list = append(r.list, s)
	if s.wanted {
		defer r.Activate() // after the lock: OnActive may collect
	}
	return s
}

// Activate notes that calls were folded or a named method was called:
// there is something to export. Cheap once active (one atomic load).
func (r *Registry) Activate() {
	if r.active.Load() || !r.active.CompareAndSwap(false, true) {
		return
	}
	if r.OnActive != nil {
		r.OnActive()
	}
}

// Active reports whether Activate was called.
func (r *Registry) Active() bool { return r.active.Load() }

// Names of the two metrics.
func (r *Registry) callsName() string    { return r.settings.Namespace + ".calls" }
func (r *Registry) durationName() string { return r.settings.Namespace + ".duration" }

// Produce returns the exported series as cumulative metrics: the calls
// counter and the duration histogram (milliseconds), one data point per
// method and status. It implements the metric SDK's Producer; the reader
// calls it once per collection.
func (r *Registry) Produce(context.Context) ([]metricdata.ScopeMetrics, error) {
	if r.Refresh != nil {
		r.Refresh()
	}
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	var calls []metricdata.DataPoint[int64]
	var durs []metricdata.HistogramDataPoint[float64]
	for _, s := range r.list {
		s.foldIn()
		if !s.metered() {
			continue
		}
		ok, failed, _ := s.snapshot()
		for _, st := range []struct {
			status  string
			buckets [nBuckets]uint64
			sumNs   uint64
		}{
			{StatusUnset, ok, uint64(s.ok.sumNs.Load()) + s.foldSumNs},
			{StatusError, failed, uint64(s.failed.sumNs.Load())},
		} {
			var n uint64
			for _, c := range st.buckets {
				n += c
			}
			if n == 0 {
				continue
			}
			attrs := r.attrs(s, st.status)
			calls = append(calls, metricdata.DataPoint[int64]{Attributes: attrs, StartTime: r.start, Time: now, Value: int64(n)})
			durs = append(durs, metricdata.HistogramDataPoint[float64]{
				Attributes: attrs, StartTime: r.start, Time: now, Count: n,
				Bounds: boundsMs[:], BucketCounts: append([]uint64(nil), st.buckets[:]...),
				Sum: float64(st.sumNs) / float64(time.Millisecond),
			})
		}
	}
	if len(calls) == 0 {
		return nil, nil
	}
	return []metricdata.ScopeMetrics{{
		Scope: r.scope,
		Metrics: []metricdata.Metrics{
			{Name: r.callsName(), Description: "Calls of a traced method: its spans and its folded calls.", Unit: "{call}",
				Data: metricdata.Sum[int64]{DataPoints: calls, Temporality: metricdata.CumulativeTemporality, IsMonotonic: true}},
			{Name: r.durationName(), Description: "Duration of the calls of a traced method; folded calls at their mean duration.", Unit: "ms",
				Data: metricdata.Histogram[float64]{DataPoints: durs, Temporality: metricdata.CumulativeTemporality}},
		},
	}}, nil
}

func (r *Registry) attrs(s *Series, status string) attribute.Set {
	kvs := []attribute.KeyValue{
		KeyServiceName.String(r.service), KeySpanName.String(s.Name), KeySpanKind.String(s.kind),
		KeyStatusCode.String(status), KeyFunctionName.String(s.Function),
	}
	if s.unhooked.Load() {
		kvs = append(kvs, KeyCountedUntil.String("rejit"))
	}
	return attribute.NewSet(kvs...)
}

// Top returns the n methods with the most calls (0: all), spans and
// folded calls together, most first, whether exported or not.
func (r *Registry) Top(n int) []Stats {
	if r.Refresh != nil {
		r.Refresh()
	}
	r.mu.Lock()
	out := make([]Stats, 0, len(r.list))
	for _, s := range r.list {
		s.foldIn()
		_, failed, all := s.snapshot()
		st := Stats{Name: s.Name, Function: s.Function, Folded: s.seenCalls, Unhooked: s.unhooked.Load(),
			P50: quantile(all, 0.5), P99: quantile(all, 0.99)}
		for i := range all {
			st.Calls += all[i]
			st.Errors += failed[i]
		}
		if st.Calls > 0 {
			out = append(out, st)
		}
	}
	r.mu.Unlock()
	sort.SliceStable(out, func(i, j int) bool { return out[i].Calls > out[j].Calls })
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}
