package ambient

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/clrotel/clrotel/capture"
)

// Field is one instance field of a class as the runtime lays it out.
type Field struct {
	Name   string
	Offset uint32
}

// Find returns the offset of the first of names that fields has.
func Find(fields []Field, names ...string) (uint32, bool) {
	for _, n := range names {
		for _, f := range fields {
			if f.Name == n {
				return f.Offset, true
			}
		}
	}
	return 0, false
}

// Field names, by what they hold. The first is .NET 8's; later ones are
// other runtimes' (.NET Core 3.1 has the same names for these).
var (
	ThreadExecutionContext = []string{"_executionContext"}
	ThreadNative           = []string{"_DONT_USE_InternalThread"}
	ThreadCurrent          = "t_currentThread" // [ThreadStatic] Thread
	ContextLocals          = []string{"m_localValues"}
	// ContextFlowSuppressed: ExecutionContext.SuppressFlow() in force.
	ContextFlowSuppressed = []string{"m_isFlowSuppressed"}
	ActivityCurrent       = "s_current" // static AsyncLocal<Activity>

	ActivityTraceID      = []string{"_traceId"}
	ActivitySpanID       = []string{"_spanId"}
	ActivityFlags        = []string{"_w3CIdFlags"}
	ActivityParentSpanID = []string{"_parentSpanId"}
	ActivityParentID     = []string{"_parentId"}
	ActivityName         = []string{"<OperationName>k__BackingField", "_operationName"}
	ActivityStart        = []string{"<StartTimeUtc>k__BackingField", "_startTimeUtc"}
	ActivitySource       = []string{"<Source>k__BackingField"} // .NET 5+
	ActivityParent       = []string{"<Parent>k__BackingField", "_parent"}
	SourceName           = []string{"<Name>k__BackingField"}
)

// Activity is the layout the hook reads an Activity through.
type Activity struct {
	TraceID, SpanID, Flags                              uint32 // required
	ParentSpanID, ParentID, Name, Start, Source, Parent uint32 // 0: not read
}

// ActivityLayout chooses the Activity fields from its layout. The ids and
// flags are required: without them no root can join.
func ActivityLayout(fields []Field) (Activity, error) {
	var a Activity
	var ok [3]bool
	a.TraceID, ok[0] = Find(fields, ActivityTraceID...)
	a.SpanID, ok[1] = Find(fields, ActivitySpanID...)
	a.Flags, ok[2] = Find(fields, ActivityFlags...)
	for i, name := range []string{"trace id", "span id", "trace flags"} {
		if !ok[i] {
			return Activity{}, fmt.Errorf("ambient: Activity has no %s field", name)
		}
	}
	a.ParentSpanID, _ = Find(fields, ActivityParentSpanID...)
	a.ParentID, _ = Find(fields, ActivityParentID...)
	a.Name, _ = Find(fields, ActivityName...)
	a.Start, _ = Find(fields, ActivityStart...)
	a.Source, _ = Find(fields, ActivitySource...)
	a.Parent, _ = Find(fields, ActivityParent...)
	return a, nil
}

// MapKind says how an IAsyncLocalValueMap implementation keeps its pairs.
type MapKind int

const (
	MapEmpty  MapKind = iota // no pairs (EmptyAsyncLocalValueMap)
	MapInline                // pairs in fields
	MapArray                 // a KeyValuePair<IAsyncLocal, object>[] field
	MapDict                  // a Dictionary<IAsyncLocal, object>: its entries array
)

// MaxInline is the most pairs a map keeps in fields (.NET 8's
// FourElementAsyncLocalValueMap); the C reader has room for this many.
const MaxInline = 4

// Pair is where KeyValuePair<IAsyncLocal, object> (or a Dictionary's
// Entry) keeps its key and value, from the start of the struct, and its
// size (an array element's).
type Pair struct{ Key, Value, Size uint32 }

// Map is the layout of one map class.
type Map struct {
	Kind       MapKind
	Keys, Vals []uint32 // MapInline: offsets from the object
	Array      uint32   // MapArray, MapDict: the array field
	Pair       Pair     // MapArray, MapDict: its elements
}

// DictLayout is the layout of the Dictionary-based map (more than 16
// pairs: ManyElementAsyncLocalValueMap, a Dictionary<IAsyncLocal, object>)
// from its base class's fields and its Entry struct's layout. The reader
// scans the entries array for the key: an entry not in use has a null key
// (Remove clears it), so no bucket or free list is followed.
func DictLayout(dictFields []Field, entry Pair) (Map, bool) {
	off, ok := Find(dictFields, "_entries", "entries")
	if !ok || entry.Key == entry.Value || entry.Size < 16 {
		return Map{}, false
	}
	return Map{Kind: MapDict, Array: off, Pair: entry}, true
}

// MapLayout chooses a map class's layout from its name and fields: .NET
// Core 3.1 keeps pairs as _key1/_value1..., .NET 8 as KeyValuePair structs
// _item0... (pair says where their key and value are), and the larger maps
// of both as an array _keyValues. The Dictionary-based map (many entries)
// has a layout of its own (DictLayout): ok is false here.
func MapLayout(class string, fields []Field, pair Pair) (Map, bool) {
	short := class[strings.LastIndexAny(class, ".+")+1:]
	switch short {
	case "EmptyAsyncLocalValueMap":
		return Map{Kind: MapEmpty}, true
	case "ManyElementAsyncLocalValueMap":
		return Map{}, false
	}
	if off, ok := Find(fields, "_keyValues"); ok {
		if pair.Key == pair.Value || pair.Size < 16 {
			return Map{}, false
		}
		return Map{Kind: MapArray, Array: off, Pair: pair}, true
	}
	m := Map{Kind: MapInline}
	for i := 0; i < MaxInline; i++ {
		if k, ok := Find(fields, fmt.Sprintf("_key%d", i+1)); ok {
			v, ok := Find(fields, fmt.Sprintf("_value%d", i+1))
			if !ok {
				return Map{}, false
			}
			m.Keys, m.Vals = append(m.Keys, k), append(m.Vals, v)
			continue
		}
		if it, ok := Find(fields, fmt.Sprintf("_item%d", i)); ok && pair.Key != pair.Value {
			m.Keys, m.Vals = append(m.Keys, it+pair.Key), append(m.Vals, it+pair.Value)
			continue
		}
		break
	}
	// Every field must be accounted for: a map with more pairs than the
	// reader has room for, or fields of another shape, is not read.
	if len(m.Keys) == 0 || len(fields) != 2*len(m.Keys) && len(fields) != len(m.Keys) {
		return Map{}, false
	}
	return m, true
}

// Span is an Activity as clrotel exports it.
type Span struct {
	TraceID  [16]byte
	SpanID   [8]byte
	Parent   [8]byte // zero: none
	Name     string
	Start    int64 // unix ns; 0: unknown
	Sampled  bool  // the W3C sampled flag (ActivityTraceFlags.Recorded)
	External bool  // created by an ActivitySource: a listener has it
	// Decided: Sampled is a decision to honour (the Activity has a
	// caller's context, or something recorded it); a local root Activity
	// nothing sampled is not sampled by default, which decides nothing.
	Decided bool
}

// FromRecord parses what the Activity.Stop hook read. ok is false when the
// Activity has no W3C ids (a hierarchical id, or never started).
func FromRecord(a capture.Activity) (s Span, ok bool) {
	if !parseHex(a.TraceID, s.TraceID[:]) || !parseHex(a.SpanID, s.SpanID[:]) {
		return Span{}, false
	}
	// The parent: _parentSpanId when the Activity computed it, else the
	// W3C id it was given (SetParentId, from a caller), else the span id of
	// the Activity it was started under in this process.
	if !parseHex(a.ParentSpanID, s.Parent[:]) {
		s.Parent = [8]byte{}
		if _, p, ok := ParseTraceparent(a.ParentID); ok {
			s.Parent = p
		} else if !parseHex(a.ParentActivitySpanID, s.Parent[:]) {
			s.Parent = [8]byte{}
		}
	}
	s.Name = a.Name
	s.Start = DateTimeUnixNano(a.StartTime)
	s.Sampled = a.Flags&1 != 0
	s.External = a.HasSource && a.Source != ""
	s.Decided = s.Sampled || a.HasCaller
	return s, true
}

// Export says whether clrotel exports a span for the Activity: only when
// nothing else does (no ActivitySource created it: `new Activity(name)`,
// as ASP.NET Core and HttpClient do with no listener), and its trace is
// sampled as the hook samples a root that joins it (profiler/hooks.c):
// a parent-based sampler follows a decided flag; else the sampler's rule
// on the trace id (sampled) decides.
func Export(s Span, parentBased bool, sampled func(traceID [16]byte) bool) bool {
	if s.External {
		return false
	}
	if parentBased && s.Decided {
		return s.Sampled
	}
	return sampled(s.TraceID)
}

// ParseTraceparent parses a W3C traceparent ("00-<trace id>-<span id>-<flags>"),
// as Activity keeps its parent's id.
func ParseTraceparent(v string) (trace [16]byte, span [8]byte, ok bool) {
	parts := strings.Split(v, "-")
	if len(parts) < 4 || len(parts[0]) != 2 || parts[0] == "ff" {
		return trace, span, false
	}
	if !parseHex(parts[1], trace[:]) || !parseHex(parts[2], span[:]) {
		return [16]byte{}, [8]byte{}, false
	}
	return trace, span, true
}

// parseHex parses exactly 2*len(out) hex digits into a non-zero id.
func parseHex(s string, out []byte) bool {
	if len(s) != 2*len(out) {
		return false
	}
	if _, err := hex.Decode(out, []byte(s)); err != nil {
		return false
	}
	for _, b := range out {
		if b != 0 {
			return true
		}
	}
	return false
}

// DateTimeUnixNano converts a DateTime's bits (ticks of 100 ns since
// 0001-01-01 in the low 62 bits, the kind in the top two) to unix
// nanoseconds; 0 for the zero DateTime.
func DateTimeUnixNano(bits uint64) int64 {
	const unixEpochTicks = 621355968000000000
	ticks := int64(bits & (1<<62 - 1))
	if ticks == 0 {
		return 0
	}
	return (ticks - unixEpochTicks) * 100
}
