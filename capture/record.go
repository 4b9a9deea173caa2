package capture

import (
	"encoding/binary"
	"fmt"
	"unicode/utf16"
)

// Kind says what a record reports. The values are shared with the C
// producer (profiler/capture.h); profiler/internal/ccapture fails when the
// two differ.
type Kind uint16

const (
	KindPad       Kind = 1 // filler up to the end of the ring; skipped
	KindEnter     Kind = 2 // a traced method was entered
	KindLeave     Kind = 3 // a traced method returned
	KindTailcall  Kind = 4 // a traced method left by a tail call
	KindUnwind    Kind = 5 // a traced frame was popped by an exception
	KindException Kind = 6 // an exception was thrown on this thread
	KindCatch     Kind = 7 // a traced frame caught an exception
	// KindNoLeave: a traced frame whose Leave never came was closed when
	// a frame below it left.
	KindNoLeave Kind = 8
	// KindServing: the thread's innermost traced frame began serving
	// (profiler/serving.h): the calls under it from now on begin traces
	// of their own; it and the spans it descends from are sent now.
	KindServing Kind = 9
	// KindActivity: System.Diagnostics.Activity.Stop was entered; the
	// record says what the Activity was (DecodeActivity).
	KindActivity Kind = 16
)

func (k Kind) String() string {
	switch k {
	case KindPad:
		return "pad"
	case KindEnter:
		return "enter"
	case KindLeave:
		return "leave"
	case KindTailcall:
		return "tailcall"
	case KindUnwind:
		return "unwind"
	case KindException:
		return "exception"
	case KindCatch:
		return "catch"
	case KindNoLeave:
		return "no_leave"
	case KindServing:
		return "serving"
	case KindActivity:
		return "activity"
	}
	return fmt.Sprintf("kind(%d)", uint16(k))
}

// Flags on enter records.
const (
	FlagRoot    uint16 = 1 << 0 // first traced frame on the thread: carries a trace id
	FlagGeneric uint16 = 1 << 1 // carries the exact ClassID and method type arguments
	FlagValues  uint16 = 1 << 2 // carries captured values after the fixed part
	// FlagValuesDropped: values were to be recorded (enter or exit record)
	// but the ring had no room for them.
	FlagValuesDropped uint16 = 1 << 3
	// FlagFolded (exit records): what was folded into the frame follows
	// the fixed part (FoldSize bytes), before any value.
	FlagFolded uint16 = 1 << 4
	// FlagTruncated (a root's exit record): the trace reached its span
	// budget; later calls were folded into their parents.
	FlagTruncated uint16 = 1 << 5
	// FlagFoldedCount (exit records): calls were folded into the frame
	// while the ring had no room for the fold part; Aux is their count.
	FlagFoldedCount uint16 = 1 << 6
	// FlagParent (a root's enter record): the trace joins the caller's
	// (Activity.Current); the parent span id follows the trace id (and the
	// span id, with FlagSpanID).
	FlagParent uint16 = 1 << 7
	// FlagLink (a root's enter record): work queued with the flow
	// suppressed, or begun under a serving frame; a span link (trace id, 16 bytes; span id, 8) to the span
	// that made it follows FlagParent's part.
	FlagLink uint16 = 1 << 13
	// FlagSpanID (enter records): the span's id, chosen by the hook,
	// follows the trace id part (an async method's, a closure's: their
	// resumes and lambdas name it). Any other span's id is SpanID(salt,
	// the record's position).
	FlagSpanID uint16 = 1 << 8
	// FlagResume (enter records): not a span, but a continuation of the
	// span whose trace id and span id follow the fixed part (an async
	// method's MoveNext, or the builder call that completes its task).
	FlagResume uint16 = 1 << 9
	// FlagAsyncEnd (with FlagResume): the span's task completes here; the
	// values are the builder's SetResult/SetException arguments.
	FlagAsyncEnd uint16 = 1 << 10
	// FlagSyncEnd (an async method's exit record): no state machine
	// carried its span; it ends with the call.
	FlagSyncEnd uint16 = 1 << 12
)

// FlagUnit (a root's enter record): the trace is a unit of work's
// (profiler/serving.h), whose outermost frame never serves. It shares its
// bit with FlagFolded, which only exit records carry.
const FlagUnit uint16 = FlagFolded

// FlagQueued (exit records): the frame made work that runs elsewhere in
// its trace (a work item, a closure whose lambdas join its span). It
// shares its bit with FlagLink, which only enter records carry.
const FlagQueued uint16 = FlagLink

// FlagApprox (exit records of spans with folded calls): a folded method
// was re-JIT-compiled without hooks before the span ended; its later calls
// are not in the span's folded counts (profiler/rejit.c).
const FlagApprox uint16 = 1 << 11

// FlagValuesLimited (a root's exit record): spans of its trace past the
// value budget (CLROTEL_MAX_VALUE_SPANS_PER_TRACE) were recorded without
// their values.
const FlagValuesLimited uint16 = 1 << 14

// FlagValuesOmitted (enter records): the span is past its trace's value
// budget and was recorded without values.
const FlagValuesOmitted uint16 = 1 << 15

// FoldTop is how many methods an exit record lists by folded time, and
// FoldSize the bytes of its fold part (profiler/capture.h REC_FOLD_SIZE).
const (
	FoldTop  = 3
	FoldSize = 16 + 16*FoldTop
)

// FoldEntry is one method's calls folded into a frame.
type FoldEntry struct {
	Func  uint32
	Calls uint32
	Ns    uint64
}

// Fold is what was folded into a frame: every call, the time of the
// outermost ones, and the methods with the most time.
type Fold struct {
	Calls uint32
	Ns    uint64
	Top   []FoldEntry
}

// HeaderSize is the size of the part every record starts with:
// u32 size, u16 kind, u16 flags, u64 unix-nanosecond timestamp.
const HeaderSize = 16

// ExitSize is the size of an exit record's fixed part (leave, tailcall,
// unwind, catch, no-leave, serving): the header, u32 function, u32 aux.
const ExitSize = HeaderSize + 8

// MaxTypeArgs bounds the method type arguments an enter record carries.
const MaxTypeArgs = 8

// Record is one record as it lies in a ring. Payload aliases ring memory
// and is valid only until the record is released.
type Record struct {
	Pos     uint64 // the record's position in its ring (bytes written before it)
	Kind    Kind
	Flags   uint16
	Time    int64 // unix nanoseconds
	Payload []byte
}

// Enter is the decoded fixed part of an enter record.
type Enter struct {
	Func      uint32   // index of the function in the profiler's table
	TraceID   [16]byte // set when the record has FlagRoot or FlagResume
	SpanID    [8]byte  // set when the record has FlagSpanID or FlagResume
	Parent    [8]byte  // the caller's span id, with FlagParent
	LinkTrace [16]byte // with FlagLink: the linked span's trace id
	LinkSpan  [8]byte  // and span id
	Class     uint64   // exact ClassID of the method's type, with FlagGeneric
	TypeArgs  []uint64 // exact method type arguments, with FlagGeneric
	Values    []byte   // captured values, with FlagValues
}

// DecodeEnter decodes an enter record's payload.
func DecodeEnter(r Record) (Enter, error) {
	var e Enter
	p := r.Payload
	if len(p) < 8 {
		return e, fmt.Errorf("capture: enter record: payload of %d bytes, want at least 8", len(p))
	}
	e.Func = binary.LittleEndian.Uint32(p)
	nargs := binary.LittleEndian.Uint32(p[4:])
	p = p[8:]
	if r.Flags&(FlagRoot|FlagResume) != 0 {
		if len(p) < 16 {
			return e, fmt.Errorf("capture: enter record: truncated trace id")
		}
		copy(e.TraceID[:], p[:16])
		p = p[16:]
	}
	if r.Flags&(FlagSpanID|FlagResume) != 0 {
		if len(p) < 8 {
			return e, fmt.Errorf("capture: enter record: truncated span id")
		}
		copy(e.SpanID[:], p[:8])
		p = p[8:]
	}
	if r.Flags&FlagParent != 0 {
		if len(p) < 8 {
			return e, fmt.Errorf("capture: enter record: truncated parent span id")
		}
		copy(e.Parent[:], p[:8])
		p = p[8:]
	}
	if r.Flags&FlagLink != 0 {
		if len(p) < 24 {
			return e, fmt.Errorf("capture: enter record: truncated span link")
		}
		copy(e.LinkTrace[:], p[:16])
		copy(e.LinkSpan[:], p[16:24])
		p = p[24:]
	}
	if r.Flags&FlagGeneric != 0 {
		if nargs > MaxTypeArgs || len(p) < 8+8*int(nargs) {
			return e, fmt.Errorf("capture: enter record: %d type arguments in %d bytes", nargs, len(p))
		}
		e.Class = binary.LittleEndian.Uint64(p)
		p = p[8:]
		e.TypeArgs = make([]uint64, nargs)
		for i := range e.TypeArgs {
			e.TypeArgs[i] = binary.LittleEndian.Uint64(p)
			p = p[8:]
		}
	}
	if r.Flags&FlagValues != 0 {
		e.Values = p
	}
	return e, nil
}

// Exit is the decoded fixed part of a leave, tailcall, unwind or catch record.
// An iterator's MoveNext's exit record: Aux's top bits say it returned
// true (an element yielded) or false (the enumeration is over); the rest
// is FlagFoldedCount's count.
const (
	ExitIterYielded uint32 = 1 << 31
	ExitIterDone    uint32 = 1 << 30
	ExitAuxCount           = ExitIterDone - 1
)

type Exit struct {
	Func   uint32
	Aux    uint32 // kind-specific
	Fold   Fold   // with FlagFolded
	Values []byte // the return value, with FlagValues
}

// DecodeExit decodes a leave, tailcall, unwind or catch record's payload.
func DecodeExit(r Record) (Exit, error) {
	if len(r.Payload) < ExitSize-HeaderSize {
		return Exit{}, fmt.Errorf("capture: %v record: payload of %d bytes, want at least %d", r.Kind, len(r.Payload), ExitSize-HeaderSize)
	}
	x := Exit{
		Func: binary.LittleEndian.Uint32(r.Payload),
		Aux:  binary.LittleEndian.Uint32(r.Payload[4:]),
	}
	rest := r.Payload[ExitSize-HeaderSize:]
	if r.Flags&FlagFolded != 0 {
		if len(rest) < FoldSize {
			return x, fmt.Errorf("capture: %v record: fold part of %d bytes, want %d", r.Kind, len(rest), FoldSize)
		}
		x.Fold.Calls = binary.LittleEndian.Uint32(rest)
		n := min(int(binary.LittleEndian.Uint32(rest[4:])), FoldTop)
		x.Fold.Ns = binary.LittleEndian.Uint64(rest[8:])
		for i := 0; i < n; i++ {
			e := rest[16+16*i:]
			x.Fold.Top = append(x.Fold.Top, FoldEntry{
				Func: binary.LittleEndian.Uint32(e), Calls: binary.LittleEndian.Uint32(e[4:]), Ns: binary.LittleEndian.Uint64(e[8:]),
			})
		}
		rest = rest[FoldSize:]
	}
	if r.Flags&FlagValues != 0 {
		x.Values = rest
	}
	return x, nil
}

// Activity is what a KindActivity record says about the Activity being
// stopped: its fields as read, undecoded (package ambient parses them).
type Activity struct {
	Func      uint32
	StartTime uint64 // StartTimeUtc's DateTime bits (ticks and kind)
	Flags     uint8  // _w3CIdFlags
	HasSource bool   // the runtime's Activity has a Source (an ActivitySource)
	HasCaller bool   // it, or an Activity it descends from, has a parent id (a caller's context)
	// Strings; Null[i] says the field was null (in the order below).
	TraceID, SpanID, ParentSpanID, ParentID, Name, Source string
	ParentActivitySpanID                                  string // the span id of its Parent Activity
	Null                                                  [7]bool
}

// DecodeActivity decodes a KindActivity record's payload: u32 function,
// u32 0, u64 start, u8 flags, u8 has-source, u8 has-caller, 5 pad, then
// seven strings, each
// u16 UTF-16 units (0xFFFF: null), u16 pad, the units padded to 4 bytes.
func DecodeActivity(r Record) (Activity, error) {
	var a Activity
	p := r.Payload
	if len(p) < 24 {
		return a, fmt.Errorf("capture: activity record: payload of %d bytes, want at least 24", len(p))
	}
	a.Func = binary.LittleEndian.Uint32(p)
	a.StartTime = binary.LittleEndian.Uint64(p[8:])
	a.Flags = p[16]
	a.HasSource = p[17] != 0
	a.HasCaller = p[18] != 0
	p = p[24:]
	out := []*string{&a.TraceID, &a.SpanID, &a.ParentSpanID, &a.ParentID, &a.Name, &a.Source, &a.ParentActivitySpanID}
	for i, dst := range out {
		if len(p) < 4 {
			return a, fmt.Errorf("capture: activity record: string %d truncated", i)
		}
		n := binary.LittleEndian.Uint16(p)
		p = p[4:]
		if n == 0xFFFF {
			a.Null[i] = true
			continue
		}
		size := (2*int(n) + 3) &^ 3
		if len(p) < size {
			return a, fmt.Errorf("capture: activity record: string %d of %d units in %d bytes", i, n, len(p))
		}
		u := make([]uint16, n)
		for j := range u {
			u[j] = binary.LittleEndian.Uint16(p[2*j:])
		}
		*dst = string(utf16.Decode(u))
		p = p[size:]
	}
	return a, nil
}

// SpanID is the id of a span whose enter record does not carry one: the
// hook and the drainer both derive it from the ring's salt and the
// record's position (capture.h clr_span_id, the same function).
func SpanID(salt, pos uint64) [8]byte {
	z := (salt ^ pos) + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	if z == 0 {
		z = 1
	}
	var id [8]byte
	binary.LittleEndian.PutUint64(id[:], z) // as the hook writes a uint64
	return id
}
