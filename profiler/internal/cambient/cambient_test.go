package cambient

import (
	"encoding/hex"
	"os"
	"runtime"
	"testing"

	"github.com/clrotel/clrotel/ambient"
	"github.com/clrotel/clrotel/capture"
)

func TestMain(m *testing.M) {
	Init()
	code := m.Run()
	FreeAll()
	os.Exit(code)
}

const (
	tid       = 0x5eed
	traceHex  = "0af7651916cd43dd8448eb211c80319c"
	spanHex   = "00f067aa0ba902b7"
	callerHex = "b7ad6b7169203331"
)

// world is one thread's synthetic state: t_currentThread's storage (slot)
// holds the Thread, whose ExecutionContext's map holds Activity.Current
// under the AsyncLocal key that Activity.s_current (static) names.
type world struct {
	slot, thread, ec, key, static, act Ptr
}

func activity(trace, span string, flags byte, parentID string) Ptr {
	a := Obj(ClassActivity, 80)
	Put(a, ActTrace, U(Str(trace)))
	Put(a, ActSpan, U(Str(span)))
	PutByte(a, ActFlags, flags)
	if parentID != "" {
		Put(a, ActParentID, U(Str(parentID)))
	}
	Put(a, ActName, U(Str("Acme.Op")))
	return a
}

func inlineMap(key, value Ptr) Ptr {
	m := Obj(ClassMap1, 24)
	Put(m, 8, U(key))
	Put(m, 16, U(value))
	return m
}

func context(m Ptr) Ptr {
	ec := Obj(ClassContext, 24)
	Put(ec, ContextLocals, U(m))
	return ec
}

// setup builds a world, publishes a new plan for it and starts a new GC
// epoch, so that nothing cached by an earlier test on this thread counts.
func setup(t *testing.T) *world {
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
	w := &world{key: Obj(ClassLocal, 16), static: Obj(0, 8)}
	Put(w.static, 0, U(w.key))
	w.act = activity(traceHex, spanHex, 0x81, "00-"+traceHex+"-"+callerHex+"-01")
	w.ec = context(inlineMap(w.key, w.act))
	w.thread = Obj(ClassThread, 24)
	Put(w.thread, ThreadEC, U(w.ec))
	Put(w.thread, ThreadNative, tid)
	w.slot = Obj(0, 8)
	Put(w.slot, 0, U(w.thread))
	SetThread(tid, w.slot)
	Publish(w.static)
	GC()
	return w
}

func mustJoin(t *testing.T, wantTrace, wantSpan string, wantFlags uint8) {
	t.Helper()
	tr, sp, fl, ok := Parent()
	if !ok || hex.EncodeToString(tr[:]) != wantTrace || hex.EncodeToString(sp[:]) != wantSpan || fl != wantFlags {
		t.Fatalf("Parent() = %x %x %#x %v; want %s %s %#x", tr, sp, fl, ok, wantTrace, wantSpan, wantFlags)
	}
}

func mustNotJoin(t *testing.T, why string) {
	t.Helper()
	if tr, sp, _, ok := Parent(); ok {
		t.Fatalf("%s: joined %x %x", why, tr, sp)
	}
}

func TestJoinsActivityCurrent(t *testing.T) {
	setup(t)
	asks := StaticAsks()
	mustJoin(t, traceHex, spanHex, Sampled|Decided)
	mustJoin(t, traceHex, spanHex, Sampled|Decided)
	if got := StaticAsks() - asks; got != 1 {
		t.Errorf("the thread static was asked %d times for two roots, want once per thread", got)
	}
}

func TestMapShapes(t *testing.T) {
	w := setup(t)
	other := Obj(ClassLocal, 16)
	// .NET 8's shape: KeyValuePair structs, the Activity in the second.
	m2 := Obj(ClassMap2, 40)
	Put(m2, 8, U(other))
	Put(m2, 16, U(Str("x")))
	Put(m2, 24, U(w.key))
	Put(m2, 32, U(w.act))
	Put(w.thread, ThreadEC, U(context(m2)))
	mustJoin(t, traceHex, spanHex, Sampled|Decided)
	// More entries than fields hold: an array, whose layout the reader
	// learns from the runtime once.
	arr := Array([2]Ptr{other, Str("a")}, [2]Ptr{Obj(ClassLocal, 16), Str("b")}, [2]Ptr{Obj(ClassLocal, 16), nil},
		[2]Ptr{w.key, w.act}, [2]Ptr{Obj(ClassLocal, 16), Str("c")})
	ma := Obj(ClassMapArray, 16)
	Put(ma, 8, U(arr))
	Put(w.thread, ThreadEC, U(context(ma)))
	mustJoin(t, traceHex, spanHex, Sampled|Decided)
	// A map the plan knows but does not read, one it does not know, and a
	// map without the key.
	Put(w.thread, ThreadEC, U(context(Obj(ClassMapMany, 64))))
	mustNotJoin(t, "dictionary map")
	Put(w.thread, ThreadEC, U(context(Obj(0x7399, 64))))
	mustNotJoin(t, "unknown map class")
	Put(w.thread, ThreadEC, U(context(inlineMap(other, w.act))))
	mustNotJoin(t, "another AsyncLocal's value")
	Put(w.thread, ThreadEC, 0)
	mustNotJoin(t, "default context")
}

func TestActivityIDs(t *testing.T) {
	w := setup(t)
	for _, tc := range []struct {
		name  string
		act   Ptr
		ok    bool
		trace string
		flags uint8
	}{
		{"upper case", activity("0AF7651916CD43DD8448EB211C80319C", "00F067AA0BA902B7", 1, ""), true, traceHex, Sampled | Decided},
		{"local root, nothing sampled", activity(traceHex, spanHex, 0x80, ""), true, traceHex, 0},
		{"caller not sampled", activity(traceHex, spanHex, 0x80, "00-"+traceHex+"-"+callerHex+"-00"), true, traceHex, Decided},
		{"zero trace id", activity("00000000000000000000000000000000", spanHex, 1, ""), false, "", 0},
		{"not hex", activity("0af7651916cd43dd8448eb211c80319z", spanHex, 1, ""), false, "", 0},
		{"short span id", activity(traceHex, "00f067aa0ba902b", 1, ""), false, "", 0},
		{"hierarchical (no W3C ids)", Obj(ClassActivity, 80), false, "", 0},
		{"not an Activity", Obj(ClassString, 80), false, "", 0},
	} {
		// A new context per case, as the runtime makes one per change.
		Put(w.thread, ThreadEC, U(context(inlineMap(w.key, tc.act))))
		if !tc.ok {
			mustNotJoin(t, tc.name)
			continue
		}
		mustJoin(t, tc.trace, spanHex, tc.flags)
	}
	// A child Activity of a local root started under one with a caller's
	// context: decided.
	child := activity(traceHex, spanHex, 0x80, "")
	Put(child, ActParent, U(activity(traceHex, callerHex, 0x80, "00-"+traceHex+"-"+callerHex+"-00")))
	Put(w.thread, ThreadEC, U(context(inlineMap(w.key, child))))
	mustJoin(t, traceHex, spanHex, Decided)
}

// An ExecutionContext is immutable: the same one yields what it yielded,
// until a GC (which may reuse its address) or a new context.
func TestCachePerContext(t *testing.T) {
	w := setup(t)
	mustJoin(t, traceHex, spanHex, Sampled|Decided)
	Put(w.act, ActSpan, U(Str("1111111111111111")))
	mustJoin(t, traceHex, spanHex, Sampled|Decided)
	GC()
	mustJoin(t, traceHex, "1111111111111111", Sampled|Decided)
	Put(w.act, ActSpan, U(Str("2222222222222222")))
	Put(w.thread, ThreadEC, U(context(inlineMap(w.key, w.act))))
	mustJoin(t, traceHex, "2222222222222222", Sampled|Decided)
}

// After a GC the cached address of t_currentThread may hold something
// else: the reader asks again, once, and reads what the runtime says now.
func TestThreadStaticMoves(t *testing.T) {
	w := setup(t)
	mustJoin(t, traceHex, spanHex, Sampled|Decided)
	// The storage moved: the old slot now holds a stale Thread whose
	// context is empty, the new one the live Thread.
	stale := Obj(ClassThread, 24)
	Put(stale, ThreadNative, tid)
	Put(w.slot, 0, U(stale))
	moved := Obj(0, 8)
	Put(moved, 0, U(w.thread))
	SetThread(tid, moved)
	GC()
	asks := StaticAsks()
	mustJoin(t, traceHex, spanHex, Sampled|Decided)
	if StaticAsks()-asks != 1 {
		t.Errorf("asked %d times after a GC, want 1", StaticAsks()-asks)
	}
	// Another thread's Thread in the slot: not this thread's, asked again.
	otherThread := Obj(ClassThread, 24)
	Put(otherThread, ThreadEC, U(w.ec))
	Put(otherThread, ThreadNative, tid+1)
	Put(moved, 0, U(otherThread))
	mustNotJoin(t, "another thread's Thread")
}

// Storage that does not exist yet (a thread that has not touched
// Thread.CurrentThread) is asked for again only every so many roots.
func TestThreadStaticNotYet(t *testing.T) {
	w := setup(t)
	SetThread(tid, nil)
	GC()
	asks := StaticAsks()
	for i := 0; i < 100; i++ {
		mustNotJoin(t, "no thread static yet")
	}
	if got := StaticAsks() - asks; got != 1 {
		t.Errorf("asked %d times in 100 roots, want 1", got)
	}
	SetThread(tid, w.slot)
	GC()
	mustJoin(t, traceHex, spanHex, Sampled|Decided)
}

// Pointers into unmapped memory read as "not joined", never a fault.
func TestHostilePointers(t *testing.T) {
	bad := U(Unmapped())
	for _, tc := range []struct {
		name  string
		spoil func(w *world)
	}{
		{"context", func(w *world) { Put(w.thread, ThreadEC, bad) }},
		{"map", func(w *world) { Put(w.ec, ContextLocals, bad) }},
		{"AsyncLocal static", func(w *world) { Put(w.static, 0, bad) }},
		{"trace id string", func(w *world) { Put(w.act, ActTrace, bad) }},
		{"Activity", func(w *world) { Put(w.thread, ThreadEC, U(context(inlineMap(w.key, Unmapped())))) }},
		{"thread static", func(w *world) { Put(w.slot, 0, bad) }},
	} {
		w := setup(t)
		tc.spoil(w)
		mustNotJoin(t, tc.name)
	}
}

// What the Activity.Stop hook records decodes into the span clrotel
// exports for the Activity.
func TestStopRecord(t *testing.T) {
	w := setup(t)
	Put(w.act, ActStart, 621355968000000000+10_000_000|1<<62) // 1 s after the unix epoch, UTC
	src := Obj(ClassSource, 16)
	Put(src, SourceName, U(Str("")))
	Put(w.act, ActSource, U(src))
	payload := Stop(w.act)
	if payload == nil {
		t.Fatal("no record")
	}
	a, err := capture.DecodeActivity(capture.Record{Kind: capture.KindActivity, Payload: append(make([]byte, 8), payload...)})
	if err != nil {
		t.Fatal(err)
	}
	s, ok := ambient.FromRecord(a)
	if !ok || hex.EncodeToString(s.TraceID[:]) != traceHex || hex.EncodeToString(s.SpanID[:]) != spanHex ||
		hex.EncodeToString(s.Parent[:]) != callerHex || s.Name != "Acme.Op" || s.Start != 1e9 || !s.Sampled || s.External || !s.Decided {
		t.Fatalf("%+v from %+v", s, a)
	}
	Put(src, SourceName, U(Str("Acme.Source")))
	a, _ = capture.DecodeActivity(capture.Record{Kind: capture.KindActivity, Payload: append(make([]byte, 8), Stop(w.act)...)})
	if s, _ := ambient.FromRecord(a); !s.External {
		t.Errorf("an ActivitySource's Activity is not taken as exported by its listener")
	}
	if Stop(Obj(ClassString, 80)) != nil {
		t.Errorf("a record for a `this` that is no Activity")
	}
}

// ExecutionContext.SuppressFlow() in force on the thread: its context's
// m_isFlowSuppressed (queue.c asks when work is queued).
func TestFlowSuppressed(t *testing.T) {
	w := setup(t)
	if FlowSuppressed() {
		t.Fatal("suppressed with the flag clear")
	}
	PutByte(w.ec, ContextSuppressed, 1)
	if !FlowSuppressed() {
		t.Fatal("not suppressed with the flag set")
	}
	Put(w.thread, ThreadEC, 0)
	if FlowSuppressed() {
		t.Fatal("suppressed with no context")
	}
	Put(w.thread, ThreadEC, 12345) // an unmapped address reads as not suppressed
	if FlowSuppressed() {
		t.Fatal("suppressed through a bad context pointer")
	}
}
