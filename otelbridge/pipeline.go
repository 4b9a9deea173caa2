package otelbridge

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/sdk/resource"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// ScopeName is the instrumentation scope of every span the profiler makes.
const ScopeName = "github.com/clrotel/clrotel"

// ExportOptions tunes the batching between the bridge and the exporter.
// Zero values take the defaults noted.
type ExportOptions struct {
	// ServiceName is used when OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES
	// name no service.
	ServiceName string
	// Version is recorded as the scope version.
	Version string
	// MaxQueueSize bounds the spans waiting for export (default 8192); once
	// it is reached, adding a span waits, so back-pressure reaches the
	// capture buffers, where drops are counted.
	MaxQueueSize int
	// MaxBatchSize is the most spans per export request (default 2048).
	MaxBatchSize int
	// MaxBatchBytes is the most encoded span bytes per export request
	// (default 2 MiB, well under a collector's 4 MiB default limit).
	MaxBatchBytes int
	// BatchTimeout is how long a span may wait for its batch to fill
	// (default 500 ms).
	BatchTimeout time.Duration
	// Uploaders is how many requests may be in flight at once (default 2).
	Uploaders int
	// Client replaces the OTLP/gRPC client (tests).
	Client otlptrace.Client
	// ResourceAttrs are added to the resource (process, runtime).
	ResourceAttrs []attribute.KeyValue
	// OnError receives export failures, at most one report per ErrorInterval
	// (default 10 s) summing what failed since the last; nil drops them.
	OnError       func(error)
	ErrorInterval time.Duration
}

// Pipeline batches the bridge's finished spans, already encoded as OTLP
// protobuf, and uploads them with the OTLP/gRPC client on its own
// goroutines. A batch is one ResourceSpans with one ScopeSpans: the
// resource and scope are encoded once, and each request hands the client a
// ResourceSpans message whose whole content is those bytes (carried as the
// message's unknown fields, which protobuf marshalling writes out as they
// are), so nothing is decoded or re-encoded on the way.
type Pipeline struct {
	client   otlptrace.Client
	header   []byte // encoded resource field of ResourceSpans
	scope    []byte // encoded scope field of ScopeSpans
	reserve  int    // room kept in front of each batch's spans for the header
	maxSpans int
	maxBytes int
	timeout  time.Duration
	onError  func(error)
	errEvery time.Duration
	service  string // the resource's service.name
	res      *resource.Resource

	mu  sync.Mutex
	cur *batch // spans being added; nil when empty

	queue      chan *batch
	free       chan *batch
	pending    atomic.Int64  // batches queued or uploading
	settled    chan struct{} // a token when pending falls to 0 (capacity 1)
	ctx        context.Context
	cancel     context.CancelFunc // ends uploads in flight (shutdown)
	quit       chan struct{}      // closed at shutdown: stop waiting on the queue
	noWait     chan struct{}      // closed by StopWaiting
	noWaitOnce sync.Once
	wg         sync.WaitGroup
	closed     atomic.Bool
	startOnce  sync.Once
	started    atomic.Bool // the client and the uploaders run
	warmOnce   sync.Once

	exported atomic.Uint64
	failed   atomic.Uint64 // spans whose upload failed
	lost     atomic.Uint64 // spans never uploaded (shutdown)

	// Collector health, for the exit flush: when the last upload ended
	// well or badly (unix ns), and when each uploader's current upload
	// began (0 when idle).
	lastOK, lastFail atomic.Int64
	inflight         []atomic.Int64

	errMu     sync.Mutex
	errLast   time.Time
	errSpans  uint64
	errCount  int
	errRecent error

	// endpoint is host:port of the OTLP endpoint ("" with a custom
	// client), probed at shutdown.
	endpoint string
}

type batch struct {
	buf     []byte // reserve bytes, then the encoded spans
	spans   int
	started time.Time
}

// NewPipeline builds the pipeline. The OTLP/gRPC client reads the standard
// OTEL_EXPORTER_OTLP_* variables (endpoint, traces endpoint, headers,
// insecure, certificates, timeout, compression) itself, and retries with
// backoff as the OTLP exporter specification says; the resource reads
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. Creating the pipeline
// does not wait for the collector; the client and the uploaders start with
// the first span, or earlier with Warm.
func NewPipeline(ctx context.Context, opts ExportOptions) (*Pipeline, error) {
	client := opts.Client
	endpoint := ""
	if client == nil {
		endpoint = EndpointAddr(os.Getenv)
		client = otlptracegrpc.NewClient()
	}
	res, err := newResource(ctx, opts)
	if err != nil {
		return nil, err
	}
	p := &Pipeline{
		client:   client,
		header:   encodeResource(res.Attributes()),
		service:  resourceService(res),
		res:      res,
		scope:    encodeScope(ScopeName, opts.Version),
		maxSpans: positive(opts.MaxBatchSize, 2048),
		maxBytes: positive(opts.MaxBatchBytes, 2<<20),
		timeout:  opts.BatchTimeout,
		onError:  opts.OnError,
		errEvery: opts.ErrorInterval,
		quit:     make(chan struct{}),
		noWait:   make(chan struct{}),
		settled:  make(chan struct{}, 1),
		endpoint: endpoint,
	}
	if p.timeout <= 0 {
		p.timeout = 500 * time.Millisecond
	}
	if p.errEvery <= 0 {
		p.errEvery = 10 * time.Second
	}
	p.reserve = len(p.header) + 1 + binary.MaxVarintLen64 + len(p.scope)
	queued := max(1, positive(opts.MaxQueueSize, 8192)/p.maxSpans)
	uploaders := positive(opts.Uploaders, 2)
	p.queue = make(chan *batch, queued)
	p.free = make(chan *batch, queued+uploaders+1)
	p.ctx, p.cancel = context.WithCancel(context.Background())
	p.inflight = make([]atomic.Int64, uploaders)
	return p, nil
}

// start starts the client and the uploaders when the first span comes (or
// at Warm): an app in which nothing is traced pays for neither, at start or
// at exit. A client that fails to start is reported; its uploads then fail
// and are counted.
func (p *Pipeline) start() {
	p.startOnce.Do(func() {
		if err := p.client.Start(context.Background()); err != nil && p.onError != nil {
			p.onError(fmt.Errorf("otelbridge: OTLP/gRPC client: %w", err))
		}
		for i := range p.inflight {
			p.wg.Add(1)
			go p.upload(&p.inflight[i])
		}
		p.wg.Add(1)
		go p.tick()
		p.started.Store(true)
	})
}

// warmTimeout bounds the connection made ahead of the first batch.
const warmTimeout = 2 * time.Second

// Warm starts the client and the uploaders and has the OTLP/gRPC client
// connect, in the background, before the first span is finished: a
// request with no spans (a valid, empty ExportTraceServiceRequest) is the
// only way the client's public API opens its connection. A short program's
// one trace then ends at exit without a connection being made on the way
// out. Called when the first method is selected; a no-op with a custom
// client, after shutdown and after the first call. A failed warm-up is not
// reported: the first real upload reports its own failure.
func (p *Pipeline) Warm() {
	if p.endpoint == "" || p.closed.Load() {
		return
	}
	p.warmOnce.Do(func() {
		go func() {
			if p.start(); !p.started.Load() {
				return // shut down first
			}
			ctx, cancel := context.WithTimeout(p.ctx, warmTimeout)
			defer cancel()
			_ = p.client.UploadTraces(ctx, nil)
		}()
	})
}

func positive(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// add encodes a finished span into the current batch, handing the batch to
// the uploaders when it is full. It waits while the queue is full.
func (p *Pipeline) add(t *Thread, f *frame, e *ending) {
	if !p.started.Load() {
		p.start()
	}
	p.mu.Lock()
	if p.cur == nil {
		p.cur = p.newBatch()
	}
	b := p.cur
	b.buf = appendSpan(b.buf, fScopeSpansSpans, t, f, e)
	b.spans++
	full := b.spans >= p.maxSpans || len(b.buf)-p.reserve >= p.maxBytes
	if full {
		p.cur = nil
	}
	p.mu.Unlock()
	if full {
		p.enqueue(context.Background(), b)
	}
}

func (p *Pipeline) newBatch() *batch {
	select {
	case b := <-p.free:
		b.buf, b.spans, b.started = b.buf[:p.reserve], 0, time.Now()
		return b
	default:
	}
	return &batch{buf: make([]byte, p.reserve, p.reserve+64<<10), started: time.Now()}
}

// enqueue hands b to the uploaders, waiting for room unless ctx ends, the
// pipeline shuts down or StopWaiting was called (then b's spans are counted
// as lost).
func (p *Pipeline) enqueue(ctx context.Context, b *batch) {
	p.pending.Add(1)
	select {
	case <-p.quit:
		p.drop(b)
		return
	case p.queue <- b:
		return
	default:
	}
	select {
	case p.queue <- b:
	case <-ctx.Done():
		p.drop(b)
	case <-p.quit:
		p.drop(b)
	case <-p.noWait:
		p.drop(b)
	}
}

// StopWaiting makes adding spans never wait for room in the queue again:
// a full queue loses (and counts) the batch instead. The exit path calls it
// when the collector is not answering, or has waited long enough, so that
// every record still gets drained and accounted for.
func (p *Pipeline) StopWaiting() {
	p.noWaitOnce.Do(func() { close(p.noWait) })
}

// Stalled reports whether the collector looks unable to take spans now: the
// last upload failed, or one has waited longer than 2 s for an answer while
// none succeeded.
func (p *Pipeline) Stalled() bool { return p.stalled(time.Now()) }

func (p *Pipeline) drop(b *batch) {
	p.lost.Add(uint64(b.spans))
	p.done()
}

// done ends a pending batch, waking a flush when it was the last.
func (p *Pipeline) done() {
	if p.pending.Add(-1) == 0 {
		select {
		case p.settled <- struct{}{}:
		default: // a token is already waiting
		}
	}
}

// takeCurrent returns the batch being filled, if it has spans and is older
// than age.
func (p *Pipeline) takeCurrent(age time.Duration) *batch {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.cur
	if b == nil || b.spans == 0 || time.Since(b.started) < age {
		return nil
	}
	p.cur = nil
	return b
}

// tick sends a batch that waited BatchTimeout without filling up.
func (p *Pipeline) tick() {
	defer p.wg.Done()
	t := time.NewTicker(p.timeout / 2)
	defer t.Stop()
	for {
		select {
		case <-p.quit:
			return
		case <-t.C:
			if b := p.takeCurrent(p.timeout); b != nil {
				p.enqueue(p.ctx, b)
			}
		}
	}
}

// upload sends queued batches until shutdown, noting in began when the
// upload in flight started.
func (p *Pipeline) upload(began *atomic.Int64) {
	defer p.wg.Done()
	for {
		select {
		case <-p.quit:
			return
		case b := <-p.queue:
			began.Store(time.Now().UnixNano())
			p.send(b)
			began.Store(0)
		}
	}
}

// stallAfter: an upload unanswered this long, with nothing accepted since
// it began, means the collector is not answering.
const stallAfter = 2 * time.Second

// stalled reports whether the collector looks unable to take spans now:
// the last upload failed, or one has been waiting for an answer longer
// than stallAfter while none succeeded.
func (p *Pipeline) stalled(now time.Time) bool {
	ok := p.lastOK.Load()
	if p.lastFail.Load() > ok {
		return true
	}
	for i := range p.inflight {
		if began := p.inflight[i].Load(); began != 0 && now.UnixNano()-began > int64(stallAfter) && ok < began {
			return true
		}
	}
	return false
}

func (p *Pipeline) send(b *batch) {
	defer p.done()
	if p.ctx.Err() != nil {
		p.lost.Add(uint64(b.spans))
		return
	}
	// ResourceSpans{resource, scope_spans: ScopeSpans{scope, spans...}},
	// written into the room reserved in front of the spans.
	spans := len(b.buf) - p.reserve
	var hdr [binary.MaxVarintLen64 + 1]byte
	h := protowire.AppendTag(hdr[:0], fResourceSpansScope, protowire.BytesType)
	h = protowire.AppendVarint(h, uint64(len(p.scope)+spans))
	start := p.reserve - len(p.scope) - len(h) - len(p.header)
	at := start
	at += copy(b.buf[at:], p.header)
	at += copy(b.buf[at:], h)
	copy(b.buf[at:], p.scope)
	rs := &tracepb.ResourceSpans{}
	rs.ProtoReflect().SetUnknown(protoreflect.RawFields(b.buf[start:]))
	if err := p.client.UploadTraces(p.ctx, []*tracepb.ResourceSpans{rs}); err != nil {
		p.lastFail.Store(time.Now().UnixNano())
		p.failed.Add(uint64(b.spans))
		p.reportError(b.spans, err)
	} else {
		p.lastOK.Store(time.Now().UnixNano())
		p.exported.Add(uint64(b.spans))
	}
	select {
	case p.free <- b:
	default:
	}
}

// reportError passes export failures to OnError, at most once per interval.
func (p *Pipeline) reportError(spans int, err error) {
	if p.onError == nil {
		return
	}
	p.errMu.Lock()
	p.errSpans += uint64(spans)
	p.errCount++
	p.errRecent = err
	var report error
	if now := time.Now(); now.Sub(p.errLast) >= p.errEvery {
		report = fmt.Errorf("%d spans in %d requests not exported: %w", p.errSpans, p.errCount, p.errRecent)
		p.errLast, p.errSpans, p.errCount = now, 0, 0
	}
	p.errMu.Unlock()
	if report != nil {
		p.onError(report)
	}
}

// flushErrors passes on the failures not reported yet (at shutdown: the
// interval would otherwise swallow them).
func (p *Pipeline) flushErrors() {
	if p.onError == nil {
		return
	}
	p.errMu.Lock()
	var report error
	if p.errCount > 0 {
		report = fmt.Errorf("%d spans in %d requests not exported: %w", p.errSpans, p.errCount, p.errRecent)
		p.errLast, p.errSpans, p.errCount = time.Now(), 0, 0
	}
	p.errMu.Unlock()
	if report != nil {
		p.onError(report)
	}
}

// Stats counts spans by outcome.
type Stats struct {
	Exported uint64 // accepted by the collector
	Failed   uint64 // sent but not accepted (after the client's retries)
	Lost     uint64 // never sent: still queued when the pipeline shut down
}

// Stats returns the pipeline's counts so far.
func (p *Pipeline) Stats() Stats {
	return Stats{Exported: p.exported.Load(), Failed: p.failed.Load(), Lost: p.lost.Load()}
}

// ForceFlush hands the spans added so far to the uploaders and waits until
// every batch queued is sent, or ctx ends.
func (p *Pipeline) ForceFlush(ctx context.Context) error {
	if b := p.takeCurrent(0); b != nil {
		p.enqueue(ctx, b)
	}
	// Woken when the last pending batch ends (a token left by an earlier
	// one only makes the loop look again), not by polling: a short
	// program's exit waits for its upload, not for a tick.
	for p.pending.Load() > 0 {
		select {
		case <-ctx.Done():
			return fmt.Errorf("otelbridge: flush: %d batches not sent: %w", p.pending.Load(), ctx.Err())
		case <-p.settled:
		}
	}
	return nil
}

// ServiceName is the resource's service.name: whom the spans are from.
func (p *Pipeline) ServiceName() string { return p.service }

func resourceService(res *resource.Resource) string {
	v, _ := res.Set().Value("service.name")
	return v.AsString()
}

func newResource(ctx context.Context, opts ExportOptions) (*resource.Resource, error) {
	var base []attribute.KeyValue
	if opts.ServiceName != "" {
		base = append(base, attribute.String("service.name", opts.ServiceName))
	}
	base = append(base, opts.ResourceAttrs...)
	// Later sources win: our defaults, then the SDK's, then the environment.
	res, err := resource.New(ctx,
		resource.WithAttributes(base...),
		resource.WithTelemetrySDK(),
		resource.WithProcessPID(),
		resource.WithFromEnv(),
	)
	if err != nil {
		// A malformed OTEL_RESOURCE_ATTRIBUTES still yields the rest.
		if res == nil {
			return nil, fmt.Errorf("otelbridge: resource: %w", err)
		}
	}
	return res, nil
}

// ErrUnreachable is returned by Shutdown when nothing listened at the
// endpoint, so queued spans were given up at once instead of retried.
var ErrUnreachable = errors.New("otelbridge: collector unreachable at exit")

// StalledWait bounds the exit flush when the collector is not answering
// (see stalled): the spans would most likely be lost anyway, and the
// exiting app should not wait the whole deadline for that.
const StalledWait = 500 * time.Millisecond

// ErrStalled is returned by Shutdown when it gave up early because the
// collector was not answering.
var ErrStalled = errors.New("otelbridge: collector not answering at exit")

// Shutdown flushes what is queued and stops the client, waiting at most
// until ctx ends; what is still queued then is lost (and counted). When
// nothing listens at the endpoint (no collector, a wrong port) it gives up
// at once, and when the collector is not answering (failing or hung) it
// waits at most StalledWait: retrying until the deadline would only hold
// the exiting app up.
func (p *Pipeline) Shutdown(ctx context.Context) error {
	if !p.closed.CompareAndSwap(false, true) {
		return nil
	}
	// No span ever came: no client to flush or stop, and none starts now.
	if p.startOnce.Do(func() {}); !p.started.Load() {
		close(p.quit)
		p.cancel()
		return nil
	}
	stalled := p.stalled(time.Now())
	if stalled {
		var cancelStalled context.CancelFunc
		ctx, cancelStalled = context.WithTimeout(ctx, StalledWait)
		defer cancelStalled()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Nothing added and nothing queued (an app that made no span): no
	// collector needs asking, so no probe and no watch are started.
	idle := p.idle()
	var unreachable atomic.Bool
	if p.endpoint != "" && !idle {
		go func() {
			if !reachable(ctx, p.endpoint, 300*time.Millisecond) && ctx.Err() == nil {
				unreachable.Store(true)
				cancel()
			}
		}()
	}
	// The collector may stop answering during the flush (or never have
	// answered: a refused TLS handshake is retried, not reported): give up
	// once it looks stalled.
	var gaveUp atomic.Bool
	if !idle {
		go func() {
			t := time.NewTicker(50 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case now := <-t.C:
					if p.stalled(now) {
						gaveUp.Store(true)
						cancel()
						return
					}
				}
			}
		}()
	}
	err := p.ForceFlush(ctx)
	cancel()
	p.cancel() // ends uploads still retrying
	close(p.quit)
	p.wg.Wait()
	p.flushErrors()
	for len(p.queue) > 0 {
		p.drop(<-p.queue)
	}
	stopCtx, stopCancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer stopCancel()
	if ctx.Err() == nil {
		stopCtx = ctx
	}
	if serr := p.client.Stop(stopCtx); err == nil && serr != nil && !errors.Is(serr, context.Canceled) {
		err = serr
	}
	switch {
	case err != nil && unreachable.Load():
		// Spans were waiting: say why they were given up.
		return fmt.Errorf("%w (%s): %d spans not exported", ErrUnreachable, p.endpoint, p.lost.Load())
	case err != nil && (stalled || gaveUp.Load()):
		return fmt.Errorf("%w: %d spans not exported", ErrStalled, p.lost.Load())
	}
	return err
}

// idle reports whether no span waits in the pipeline: none in the batch
// being filled, no batch queued or uploading.
func (p *Pipeline) idle() bool {
	p.mu.Lock()
	empty := p.cur == nil || p.cur.spans == 0
	p.mu.Unlock()
	return empty && p.pending.Load() == 0
}

// reachable reports whether a TCP connection to addr can be opened.
func reachable(ctx context.Context, addr string, timeout time.Duration) bool {
	d := net.Dialer{Timeout: timeout}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// EndpointAddr returns the host:port the OTLP/gRPC exporter sends traces to,
// from OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT
// (default localhost:4317), as the exporter itself resolves them.
func EndpointAddr(getenv func(string) string) string {
	return endpointAddr(getenv, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
}

// MetricsEndpointAddr is EndpointAddr for the metric exporter
// (OTEL_EXPORTER_OTLP_METRICS_ENDPOINT).
func MetricsEndpointAddr(getenv func(string) string) string {
	return endpointAddr(getenv, "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")
}

func endpointAddr(getenv func(string) string, signalVar string) string {
	raw := getenv(signalVar)
	if raw == "" {
		raw = getenv("OTEL_EXPORTER_OTLP_ENDPOINT")
	}
	if raw == "" {
		return "localhost:4317"
	}
	host := raw
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		host = u.Host
	}
	if _, _, err := net.SplitHostPort(host); err != nil {
		host = net.JoinHostPort(strings.Trim(host, "[]"), "4317")
	}
	return host
}
