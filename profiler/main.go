// Command profiler is built with -buildmode=c-shared into libclrotel.so, the
// CoreCLR profiler. See doc.go for what lives where.
package main

/*
#cgo CFLAGS: -O2 -fvisibility=hidden -Wall -Wno-unused-function
#include <stdlib.h>
#include "profiler.h"
#include "clrinfo.h"
#include "async.h"
#include "startup.h"
#include "eltargs.h"
#include "disarm.h"
*/
import "C"

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"time"
	"unsafe"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"

	"github.com/clrotel/clrotel/clr"
	"github.com/clrotel/clrotel/config"
	"github.com/clrotel/clrotel/draining"
	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/folding"
	"github.com/clrotel/clrotel/hookstate"
	"github.com/clrotel/clrotel/internal/logging"
	"github.com/clrotel/clrotel/methodmetrics"
	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/otelbridge"
	"github.com/clrotel/clrotel/sampling"
	"github.com/clrotel/clrotel/selection"
	"github.com/clrotel/clrotel/shaping"
	"github.com/clrotel/clrotel/shedding"
	"github.com/clrotel/clrotel/summary"
	"github.com/clrotel/clrotel/translate"
	"github.com/clrotel/clrotel/values"
	"github.com/clrotel/clrotel/values/typerender"
)

// version is set by the build (-ldflags -X main.version=...).
var version = "dev"

func main() {}

// profiler is the Go half of the library. The runtime loads one profiler
// per process, so the exported entry points reach it through prof.
type profiler struct {
	openFolded uint64 // folded calls running at exit
	cfg        config.Config
	log        *logging.Logger
	resolver   *naming.Resolver
	sel        selection.Policy
	decider    selection.Decider
	funcs      *functionTable
	pipe       *otelbridge.Pipeline
	bridge     *otelbridge.Bridge
	drain      *draining.Drainer
	tr         *translate.Translator // the drainer's
	metrics    *methodmetrics.Export // nil: off
	shapes     *shaping.Rules        // no-code targets; nil: none

	planner      *planner
	tails        tailWaits // functions waiting for their tail callees' keys
	render       *values.Renderer
	stop         chan struct{}
	shutdownOnce sync.Once

	samp    *samplingState
	cfgPath string // CLROTEL_CONFIG, watched for changes

	ambient   *ambientState   // joining the caller's trace (Activity.Current)
	queue     queueState      // work queued with the flow suppressed (queue.c)
	iterators flows.Iterators // iterators traced as one span per enumeration
	groups    folding.Groups  // an iterator's functions, which fold together
}

var prof *profiler

//export clrotelInitialize
func clrotelInitialize(info unsafe.Pointer, infoVersion C.uint32_t, out *C.clr_init_result) (rc C.int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "clrotel: initialisation failed, the app runs without tracing: %v\n%s", r, debug.Stack())
			rc = -1
		}
	}()
	config.GoProcs(os.LookupEnv)
	cfg, err := config.Load(os.LookupEnv, os.ReadFile)
	log := logging.New(cfg.LogLevel, os.Stderr)
	if cfg.LogFile != "" {
		if ferr := log.OpenFile(cfg.LogFile); ferr != nil {
			log.Warnf("%v; logging to stderr only", ferr)
		}
	}
	if err != nil {
		// A bad setting falls back to its default, a bad file is not used
		// at all; the app always runs, traced.
		log.Errorf("%v\n(using defaults for what is wrong; the app runs traced)", err)
	}
	for _, w := range config.ExportWarnings(os.LookupEnv) {
		log.Warnf("%s", w)
	}
	p := &profiler{
		cfg:      cfg,
		log:      log,
		resolver: naming.NewResolver(clr.Runtime{}),
		sel: selection.New(selection.Settings{Include: cfg.Include, Exclude: cfg.Exclude, DefaultExclude: config.DefaultExclude,
			FoldExempt: cfg.Fold.Exempt, Entry: cfg.Serving.Entry, CaptureExclude: cfg.CaptureExclude, Capture: cfg.Capture}),
		funcs: newFunctionTable(),
		stop:  make(chan struct{}),
	}
	p.ambient = newAmbientState(p)
	p.decider = selection.Decider{Policy: p.sel, Names: p.resolver, Debugf: log.Debugf,
		ActivityCode: func() { p.ambient.refresh(true) },
		QueueReady:   func() error { return p.queue.delegateTarget(p) }}
	if cfg.Async {
		p.decider.Special = clr.SpecialMethod
	}
	p.planner = newPlanner(p, values.NewRedactor(append(append([]string{}, values.DefaultSensitive...), cfg.Redact...)), cfg.Statics, cfg.Capture)
	p.render = &values.Renderer{Classes: p.planner, Limits: values.Limits{MaxAttrBytes: cfg.MaxAttrBytes, MaxSubAttrs: 16}, Redact: p.planner.redact,
		Types: typerender.New(), RedactPAN: cfg.RedactPAN, Memo: values.NewMemo()}
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { log.Warnf("export: %v", err) }))
	pipe, err := otelbridge.NewPipeline(context.Background(), otelbridge.ExportOptions{
		ServiceName:   defaultServiceName(),
		Version:       version,
		MaxQueueSize:  cfg.ExportQueue,
		MaxBatchSize:  cfg.ExportBatch,
		BatchTimeout:  cfg.ExportInterval,
		ResourceAttrs: []attribute.KeyValue{attribute.String("process.runtime.name", ".NET"), attribute.String("telemetry.distro.name", "clrotel"), attribute.String("telemetry.distro.version", version)},
		OnError:       func(err error) { log.Warnf("export: %v", err) },
	})
	if err != nil {
		log.Errorf("%v; the app runs without tracing", err)
		return -1
	}
	p.pipe = pipe
	p.bridge = otelbridge.New(pipe)
	p.bridge.SetMinDuration(cfg.Sampling.MinDurationNs)
	p.bridge.SetAsyncLimit(int(cfg.AsyncMaxPending))
	p.bridge.SetServing(cfg.Serving)
	p.startMetrics()
	p.shapes = shaping.Load(cfg.NoCode, cfg.NoCodeFile, os.ReadFile, log)
	p.drain = newDrainer(p)
	go p.drain.Run()
	go p.planner.requests.Run(p.stop)
	prof = p
	configureScope(p.sel)
	if cfg.Async {
		C.clr_async_enable(1)
	}

	out.event_mask = C.clr_startup_base_mask() // startup.c: with ENTERLEAVE, which it sets per compile
	out.event_mask_high = C.clr_startup_base_mask_high(cBool(cfg.Async))
	var lenOff, bufOff C.uint32_t
	layout := C.clr_string_layout(&lenOff, &bufOff) == 0
	if !layout {
		log.Warnf("GetStringLayout2 failed: string values are not read")
	}
	h := cfg.Hooks(layout)
	out.capture = C.clr_capture_config{
		max_threads: C.uint32_t(h.MaxThreads), ring_size: C.uint32_t(h.RingSize), ring_soft: C.uint32_t(h.RingSoft),
		stack_cap: C.uint32_t(h.StackCap), value_bytes: C.uint32_t(h.ValueBytes),
		max_trace_spans: C.uint32_t(h.MaxTraceSpans), max_value_spans: C.uint32_t(h.MaxValueSpans),
		fold_min_calls: C.uint32_t(h.FoldMinCalls), fold_max_ns: C.uint64_t(h.FoldMaxNs),
		serving_after_ns: C.uint64_t(h.ServingAfterNs), serving_children: C.uint32_t(h.ServingChildren),
	}
	// Re-JIT of folded methods without hooks (rejit.c) needs ReJIT, which
	// can only be asked for here.
	if h.ReJIT {
		out.event_mask |= C.COR_PRF_ENABLE_REJIT
		out.capture.fold_judge_folded = 1
		go p.reJITLoop(p.stop)
	}
	v := h.Values
	out.values = C.clr_value_limits{
		max_bytes: C.uint32_t(v.MaxBytes), max_chars: C.uint32_t(v.MaxChars), max_elems: C.uint32_t(v.MaxElems),
		max_depth: C.uint32_t(v.MaxDepth), max_fields: C.uint32_t(v.MaxFields), string_len_offset: lenOff, string_buf_offset: bufOff,
	}
	out.plan_table_size = C.uint32_t(h.PlanTableSize)
	// The first sampling block, before any hook runs; then the remote
	// strategy and the configuration file's changes as they come.
	if C.clr_strategy_init() == 0 {
		log.Infof("membarrier(2) unavailable: root decisions fence for strategy updates")
	}
	p.samp = newSamplingState(log, p.funcs, p.pipe.ServiceName())
	p.samp.Reload(cfg.Sampling)
	p.samp.remote.Apply(cfg.Sampling)
	if path, ok := config.FilePath(os.LookupEnv); ok {
		p.cfgPath = path
		w := config.NewWatcher(path, cfg, os.LookupEnv, os.ReadFile)
		go p.watchConfig(w)
	}
	var major, minor C.uint16_t
	if hr := C.clr_runtime_version(&major, &minor); hr == 0 {
		p.planner.SetOldReturns(major < 6)
		if major < 5 {
			C.clr_elt_repair(1)
		}
		log.Infof("runtime %d.%d", major, minor)
	} else {
		p.planner.SetOldReturns(true)
		log.Infof("GetRuntimeInformation: HRESULT %#x; assuming a runtime before .NET 6", uint32(hr))
	}
	log.Infof("profiler %s loaded (ICorProfilerInfo%d)", version, uint32(infoVersion))
	return 0
}

// clrotelWarm does, on the thread that started Go early (callbacks.c
// go_prestart), the one-time work the first traced method would wait for.
//
//export clrotelWarm
func clrotelWarm() {
	p := prof
	if p == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			p.log.Errorf("warming up: %v", r)
		}
	}()
	// Off the runtime's threads: as the planner's own goroutine, never
	// after Shutdown closed the runtime to Go.
	p.planner.gate.Do(p.planner.Prepare)
}

// defaultServiceName names the service after the app when OTEL_SERVICE_NAME
// is not set.
func defaultServiceName() string {
	b, err := os.ReadFile("/proc/self/cmdline")
	if err != nil {
		return ""
	}
	return config.AppName(b)
}

//export clrotelMapFunction
func clrotelMapFunction(fid C.uintptr_t) *C.clr_fn {
	p := prof
	if p == nil {
		return nil
	}
	if C.clr_unhandled_suspected() != 0 {
		// This thread's exception found no catcher in any frame the
		// profiler traces, and the runtime compiles code on it: it is
		// printing the exception before it aborts the process (.NET 5+
		// restores SIGABRT's default first, so no handler would run). End
		// and export the spans now, waiting at most 3 s.
		C.clr_abort_wait()
	}
	if f := p.function(uint64(fid), nil); f != nil {
		return f.c
	}
	return nil
}

// clrotelAdopt decides the CoreLib specials hooked before Go started
// (callbacks.c special_before_go), as clrotelMapFunction would have, and
// gives each placeholder its role: the hooks already call them with it.
//
//export clrotelAdopt
func clrotelAdopt(fns **C.clr_fn, n C.uint32_t) {
	p := prof
	if p == nil {
		return
	}
	for _, ph := range unsafe.Slice(fns, int(n)) {
		if f := p.function(uint64(ph.function_id), ph); f != nil && f.c != ph {
			C.clr_fn_adopt(ph, nil) // no role: its hooks stay idle
		}
	}
}

// function returns fid's function, decided the first time it is asked
// for; a placeholder the hooks already call with takes its role (the
// decided block, never seen by a hook, is dropped). nil when deciding
// failed.
func (p *profiler) function(fid uint64, placeholder *C.clr_fn) (f *function) {
	defer func() {
		if r := recover(); r != nil {
			p.log.Errorf("naming function %#x: %v", fid, r)
			f = nil
		}
	}()
	fresh, at := false, uint32(0)
	f = p.funcs.lookupOrAdd(fid, func(index uint32) *function {
		f := p.newFunction(fid, index)
		if placeholder != nil && f.c != nil {
			C.clr_fn_adopt(placeholder, f.c)
			f.c = placeholder
		}
		fresh, at = f.c != nil, index
		return f
	})
	if fresh {
		// Once the table has it: a group that folds meanwhile finds it.
		p.joinGroup(f, at)
	}
	return f
}

func (p *profiler) newFunction(fid uint64, index uint32) *function {
	f := &function{id: fid}
	d := p.decider.Decide(fid)
	m := d.Method
	switch d.Route {
	case selection.Untraced:
		return f
	case selection.Compile:
		f.c = newCFn(fid, index, uint32(d.Flags), sampling.MethodSetting{})
		return f
	case selection.Queue, selection.Work:
		f.method = bridgeMethod(m)
		f.c = newCFn(fid, index, uint32(d.Flags), sampling.MethodSetting{})
		f.c.queue_args = C.uint16_t(d.QueueArgs)
		if d.Flags&selection.FnWorkRun != 0 {
			if err := p.setWorkCallee(f.c, m); err != nil {
				p.log.Debugf("work items: %s: %v", m.SelectName, err)
			}
		}
		// Whether the flow is suppressed is read through the thread's
		// ExecutionContext.
		p.ambient.refresh(false)
		return f
	}
	stop := d.Route == selection.ActivityStop
	var role asyncRole
	var err error
	if p.cfg.Async {
		if role, err = p.asyncRoleOf(fid, m); err != nil {
			p.log.Debugf("async: %v", err)
		}
	}
	// A trace rooted here is sampled by the first matching rule, else by
	// the sampler (a remote strategy's entry for it): decided in the hook
	// from this setting until the next strategy block covers the function.
	traits := p.sel.Traits(m.SelectName, role.flags&selection.FnAsyncMoveNext != 0)
	hooked := selection.Hooked{Shared: m.Shared, Plumbing: m.Plumbing, Role: role.flags, ActivityStop: stop, Traits: traits}
	if !hooked.Hooks() {
		return f
	}
	f.method = bridgeMethod(m)
	f.iterates, f.class = role.iterates, m.ClassID
	if role.group != 0 {
		f.group = folding.GroupKey{Module: m.ModuleID, Type: role.group}
	}
	if p.shapes != nil {
		if mf, err := p.resolver.MetadataForm(m); err == nil {
			f.meta = &mf
		}
	}
	flags := uint32(hooked.Flags())
	f.names = sampling.MethodNames{Select: m.SelectName, Span: f.method.SpanName, Function: m.FunctionName}
	if stop {
		// No span: its enter records the Activity for a span of its own.
		f.c = newCFn(fid, index, flags, sampling.MethodSetting{})
		return f
	}
	f.c = newCFn(fid, index, flags, p.samp.Setting(f.names))
	if info, err := p.resolver.ModuleInfo(m.ModuleID); err == nil {
		if meta, ok := info.Meta.(clr.Metadata); ok {
			p.setTailCallees(f.c, fid, meta, m.Name)
		}
	}
	p.pipe.Warm() // its spans will be exported: connect now, not at exit
	role.apply(f.c)
	p.planner.Prepare()
	p.ambient.refresh(false)
	// The compiler's plumbing carries no values, nor does an iterator's
	// step: what it returns is read for the enumeration (FnIterStep), and
	// is no attribute of its span.
	if traits.Capture && selection.Flags(flags)&(selection.FnPlumbing|selection.FnIterStep) == 0 {
		if role.flags&selection.FnAsyncComplete != 0 {
			f.plan = p.planner.completionPlan(m)
		} else {
			f.plan = p.planner.functionPlan(m)
		}
		f.c.plan = f.plan.c
	}
	p.log.Debugf("tracing %s", f.method.SpanName)
	return f
}

// enumeration names an enumeration the iterator step f begins after its
// iterator method, instantiated as the enumerator's exact class says
// (class, read from the frame of shared code; 0: f's own), once per class.
func (p *profiler) enumeration(f *function, class uint64) *otelbridge.Method {
	if f == nil {
		return nil
	}
	if f.iterates == 0 {
		return f.method
	}
	if class == 0 {
		class = f.class
	}
	m, _ := f.insts.Get(fmt.Sprint("enumeration ", class), func() (*otelbridge.Method, error) {
		nm, err := p.resolver.Enumeration(f.iterates, class)
		if err != nil {
			p.log.Debugf("%v", err)
			return f.method, nil // named as the step
		}
		return bridgeMethod(nm), nil
	})
	return m
}

// instantiation names a call of shared generic code by the exact types the
// hook read from its frame, once per distinct instantiation.
func (p *profiler) instantiation(f *function, class uint64, typeArgs []uint64) *otelbridge.Method {
	m, _ := f.insts.Get(fmt.Sprint(class, typeArgs), func() (*otelbridge.Method, error) {
		nm, err := p.resolver.Method(f.id, class, typeArgs)
		if err != nil {
			p.log.Debugf("%v", err)
			return f.method, nil // named as the shared code
		}
		return bridgeMethod(nm), nil
	})
	return m
}

//export clrotelShutdown
func clrotelShutdown() {
	p := prof
	if p == nil {
		return
	}
	// From the Shutdown callback, or from exit() when the host never shut
	// the runtime down (callbacks.c, at_exit): whichever comes first.
	p.shutdownOnce.Do(p.shutdown)
}

func (p *profiler) shutdown() {
	defer func() {
		if r := recover(); r != nil {
			p.log.Errorf("shutdown: %v", r)
		}
	}()
	// Go's own threads ask the runtime nothing once this returns.
	defer p.planner.gate.Close()
	close(p.stop)
	p.samp.remote.Stop()
	deadline := time.Now().Add(p.cfg.ShutdownWait)
	done := draining.Finish(p.drain, p.pipe, p.cfg.ShutdownWait, func() {
		p.log.Warnf("shutdown: the collector is not keeping up; spans that do not fit in the export queue are lost")
	})
	if done {
		// Folded calls still running count as folded (abandonAll puts
		// them on the spans they fold into).
		p.openFolded = hookstate.OpenFoldedCalls()
		p.drain.AbandonAll()
		p.log.Infof("%v", p.tables())
	}
	p.logLines(summary.Disarm(int(C.clr_disarm_last()), int(C.CLR_DISARM_NAMES)))
	p.drain.ReportDrops(true)
	if done {
		for _, tg := range p.tr.UnmatchedTargets() {
			p.log.Warnf("%s", tg.Unmatched())
		}
	}
	e := summary.Exit{Folding: folding.Summary(p.funcs.folded(), p.funcName, 20), ReJIT: hookstate.ReJITNote(),
		GuardFaults: uint64(C.clr_guard_faults()), AsyncOverflow: p.bridge.AsyncOverflow(), AsyncMaxPending: uint64(p.cfg.AsyncMaxPending),
		Shedding:      shedding.Note(uint64(C.clr_shed_traces()), uint64(C.clr_shed_calls())),
		EventsDropped: uint64(C.clr_events_dropped()), FoldedAfterSent: p.bridge.FoldedAfterSent(), NoLeave: uint64(C.clr_no_leave_count())}
	e.ArgLayouts, e.ArgAsking = hookstate.ArgLayouts()
	if p.cfg.Async {
		e.Async, e.AsyncTypes, e.AsyncSkippedModules, e.QueueSuppressed = true, uint64(C.clr_async_types()), uint64(C.clr_async_skipped_modules()), hookstate.QueueSuppressed()
		e.WorkMade, e.WorkJoined, e.WorkFull, e.WorkLost = hookstate.WorkCounts()
		e.GCs, e.GCRanges = hookstate.WorkGCCounts()
		e.GCEvents = hookstate.GCSession()
		p.logLines(hookstate.SharedCode())
	}
	p.logLines(e.Lines())
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	metricsDone := p.metrics.Shutdown(ctx)
	if err := p.pipe.Shutdown(ctx); err != nil {
		p.log.Warnf("exit: spans still queued were not exported: %v", err)
	}
	<-metricsDone
	st := p.pipe.Stats()
	p.log.Infof("%v", summary.Totals{Records: p.drain.Records.Load(), Exported: st.Exported, Failed: st.Failed, Lost: st.Lost, Dropped: hookstate.Dropped(),
		Folded: uint64(C.clr_folded_calls()) + p.openFolded, ShedCalls: uint64(C.clr_shed_calls()), ShedTraces: uint64(C.clr_shed_traces()),
		Unsampled: uint64(C.clr_unsampled_roots()), RateLimited: uint64(C.clr_rate_limited_roots())})
}

// logLines logs a report's lines.
func (p *profiler) logLines(lines []summary.Line) {
	for _, l := range lines {
		switch l.Level {
		case summary.Warn:
			p.log.Warnf("%s", l.Text)
		case summary.Debug:
			p.log.Debugf("%s", l.Text)
		default:
			p.log.Infof("%s", l.Text)
		}
	}
}
