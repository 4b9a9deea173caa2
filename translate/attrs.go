package translate

import (
	"fmt"
	"time"

	"github.com/clrotel/clrotel/capture"
	"github.com/clrotel/clrotel/folding"
	"github.com/clrotel/clrotel/otelbridge"
	"github.com/clrotel/clrotel/values"
	"go.opentelemetry.io/otel/attribute"
)

// Attribute keys the translator adds from a record's flags.
const (
	// KeyValuesLimited marks a root whose trace reached its value budget:
	// its later spans carry no argument or return values.
	KeyValuesLimited = attribute.Key("clrotel.values_limited")
	// KeyValuesOmitted marks a span past its trace's value budget: no
	// values, by design.
	KeyValuesOmitted = attribute.Key("dotnet.values.omitted")
	// KeyValuesDropped marks a span whose values the ring had no room for.
	KeyValuesDropped = attribute.Key("dotnet.values.dropped")
	// KeyValuesTruncated marks a span whose values were cut by a byte
	// budget (the hook's per record, or the span's attribute limit).
	KeyValuesTruncated = attribute.Key("dotnet.values.truncated")
)

// folded gives th's innermost span what was folded into it (the bridge
// renders it when the span is exported), and adds to its exit's
// attributes whether its trace was cut at the span budget.
func (t *Translator) folded(th *otelbridge.Thread, r capture.Record, x capture.Exit, attrs []attribute.KeyValue) []attribute.KeyValue {
	if r.Flags&capture.FlagFolded != 0 {
		fs := folding.Span{Calls: uint64(x.Fold.Calls), Time: time.Duration(x.Fold.Ns)}
		for _, e := range x.Fold.Top {
			fs.Top = append(fs.Top, folding.Entry{Fn: e.Func, Calls: uint64(e.Calls), Time: time.Duration(e.Ns), Name: t.FuncName(e.Func)})
		}
		t.Bridge.Fold(th, fs)
		t.Bridge.NoteFolded()
	}
	if r.Flags&capture.FlagFoldedCount != 0 && x.Aux&capture.ExitAuxCount > 0 {
		t.Bridge.Fold(th, folding.Span{Calls: uint64(x.Aux & capture.ExitAuxCount)})
		t.Bridge.NoteFolded()
	}
	if r.Flags&capture.FlagTruncated != 0 {
		attrs = append(attrs, folding.KeyTruncated.Bool(true))
	}
	if r.Flags&capture.FlagApprox != 0 {
		attrs = append(attrs, folding.KeyApproximate.Bool(true))
	}
	if r.Flags&capture.FlagValuesLimited != 0 {
		attrs = append(attrs, KeyValuesLimited.Bool(true))
	}
	return attrs
}

// FuncName is the span name of the method the hooks record as index i,
// for what is folded into a span.
func (t *Translator) FuncName(i uint32) string { return FuncName(t.Methods, i) }

// FuncName names the method the hooks record as index i by its span name,
// or by its index when ms does not know it.
func FuncName(ms Methods, i uint32) string {
	if f, ok := ms.Function(i); ok && f.Method != nil {
		return f.Method.SpanName
	}
	return fmt.Sprintf("function #%d", i)
}

// markDropped marks a record whose values were left out.
func (t *Translator) markDropped(r capture.Record, attrs []attribute.KeyValue) []attribute.KeyValue {
	if r.Flags&capture.FlagValuesOmitted != 0 {
		attrs = append(attrs, KeyValuesOmitted.Bool(true))
	}
	if r.Flags&capture.FlagValuesDropped == 0 {
		return attrs
	}
	t.valuesDropped++
	return append(attrs, KeyValuesDropped.Bool(true))
}

// values decodes a record's value stream and renders it for slots, within
// budget bytes of attributes, and reports the bytes used. Classes the hooks
// met without a plan are asked for. With elems, the typed elements of its
// arrays (values.AppendElements) are left in t.elems, for no-code shaping;
// else t.elems is emptied.
func (t *Translator) values(slots []values.Slot, stream []byte, budget int, elems bool) ([]attribute.KeyValue, int) {
	dec := &t.dec
	dec.Reset(stream)
	vals, raw := t.vals[:0], t.raw[:0]
	defer func() { clear(vals); clear(raw); t.vals, t.raw = vals[:0], raw[:0] }()
	for i := 0; i < len(slots) && dec.More(); i++ {
		start := dec.Offset()
		if !elems && dec.Skip() == nil {
			// A value the renderer's memo may replay stays encoded until
			// the memo misses: most bytes of a service's calls are the
			// same objects again (AppendAttrsOf).
			if b := stream[start:dec.Offset()]; t.Render.Defers(b) {
				vals = append(vals, values.Value{Shape: values.Encoded})
				raw = append(raw, b)
				continue
			}
		}
		dec.Seek(start)
		v, err := dec.Next()
		if err != nil {
			t.Log.Debugf("value stream: %v", err)
			break
		}
		vals = append(vals, v)
		raw = append(raw, stream[start:dec.Offset()])
		if v.Shape == values.Truncated {
			break
		}
	}
	// The hook's byte budget for the record (CLROTEL_VALUE_BYTES) ended
	// inside the values (inside one, shown as "…", or before one: fewer
	// values than slots): the span says so, as when the attribute budget
	// cuts them.
	streamCut := len(vals) < len(slots) || dec.Cut()
	t.elems = t.elems[:0]
	if elems {
		t.elems = t.Render.AppendElements(t.elems, slots, vals)
	}
	attrs, cut, used := t.Render.AppendAttrsOf(t.attrs[:0], slots, vals, raw, budget)
	for _, cls := range dec.NoPlanClasses() {
		t.Methods.NeedPlan(cls)
	}
	for _, cls := range t.Render.NoPlanClasses() {
		t.Methods.NeedPlan(cls)
	}
	if cut || streamCut {
		attrs = append(attrs, KeyValuesTruncated.Bool(true))
	}
	t.attrs = attrs
	return attrs, used
}
