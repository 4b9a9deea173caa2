package otlpsink

import (
	"encoding/hex"
	"errors"
	"math"
	"slices"
	"unicode/utf8"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protowire"
)

// A Sink flattens the spans of a request straight from its wire format:
// decoding into the generated messages first, then copying them into
// Spans, cost clrotel run about as much again as everything else it does
// per span. The result is what decoding the messages and reading them
// would give (proto3 rules: the last of a repeated singular field wins, a
// message field met twice is merged, strings must be UTF-8).

// Field numbers of the OTLP trace messages
// (opentelemetry/proto/trace/v1/trace.proto, common/v1/common.proto).
const (
	wireResourceSpansResource   = 1
	wireResourceSpansScopeSpans = 2
	wireResourceAttributes      = 1
	wireScopeSpansScope         = 1
	wireScopeSpansSpans         = 2
	wireScopeName               = 1

	wireSpanTraceID      = 1
	wireSpanSpanID       = 2
	wireSpanParentSpanID = 4
	wireSpanName         = 5
	wireSpanKind         = 6
	wireSpanStart        = 7
	wireSpanEnd          = 8
	wireSpanAttributes   = 9
	wireSpanEvents       = 11
	wireSpanLinks        = 13
	wireSpanStatus       = 15

	wireEventTime       = 1
	wireEventName       = 2
	wireEventAttributes = 3

	wireLinkTraceID    = 1
	wireLinkSpanID     = 2
	wireLinkAttributes = 4

	wireStatusMessage = 2
	wireStatusCode    = 3

	wireKeyValueKey   = 1
	wireKeyValueValue = 2

	wireAnyString = 1
	wireAnyBool   = 2
	wireAnyInt    = 3
	wireAnyDouble = 4
	wireAnyArray  = 5
	wireAnyKvlist = 6
	wireAnyBytes  = 7

	wireListValues = 1 // ArrayValue.values, KeyValueList.values
)

var errInvalidUTF8 = errors.New("otlpsink: a string field is not valid UTF-8")

// wireField is one field of a message: its number and type, and its value
// (the bytes of a length-delimited field, else the number).
type wireField struct {
	num  protowire.Number
	typ  protowire.Type
	b    []byte
	v    uint64
	rest []byte // what follows it
}

// nextField reads the first field of b.
func nextField(b []byte) (wireField, error) {
	// Most fields of a span are a one-byte tag and, if length-delimited,
	// a one-byte length: read those without the general decoding.
	if len(b) >= 2 && b[0] < 0x80 && b[0] >= 8 {
		num, typ := protowire.Number(b[0]>>3), protowire.Type(b[0]&7)
		switch {
		case typ == protowire.BytesType && b[1] < 0x80:
			if end := 2 + int(b[1]); end <= len(b) {
				return wireField{num: num, typ: typ, b: b[2:end], rest: b[end:]}, nil
			}
		case typ == protowire.VarintType && b[1] < 0x80:
			return wireField{num: num, typ: typ, v: uint64(b[1]), rest: b[2:]}, nil
		}
	}
	return nextFieldSlow(b)
}

// nextFieldSlow is nextField for any field.
func nextFieldSlow(b []byte) (wireField, error) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return wireField{}, errMalformed
	}
	f := wireField{num: num, typ: typ}
	b = b[n:]
	switch typ {
	case protowire.BytesType:
		f.b, n = protowire.ConsumeBytes(b)
	case protowire.VarintType:
		f.v, n = protowire.ConsumeVarint(b)
	case protowire.Fixed64Type:
		f.v, n = protowire.ConsumeFixed64(b)
	case protowire.Fixed32Type:
		var v uint32
		v, n = protowire.ConsumeFixed32(b)
		f.v = uint64(v)
	default:
		n = protowire.ConsumeFieldValue(num, typ, b)
	}
	if n < 0 {
		return wireField{}, errMalformed
	}
	f.rest = b[n:]
	return f, nil
}

// fields calls fn with each field of the message b.
func fields(b []byte, fn func(wireField) error) error {
	for len(b) > 0 {
		f, err := nextField(b)
		if err != nil {
			return err
		}
		if err := fn(f); err != nil {
			return err
		}
		b = f.rest
	}
	return nil
}

// is says whether f is field num of type typ (a field of another type is
// unknown to the schema, and skipped).
func (f wireField) is(num protowire.Number, typ protowire.Type) bool {
	return f.num == num && f.typ == typ
}

func wireString(b []byte) (string, error) {
	if !utf8.Valid(b) {
		return "", errInvalidUTF8
	}
	return string(b), nil
}

// A request's spans repeat most of their strings: every span carries the
// same attribute keys, a method's spans the same names, module and types,
// a trace's spans its id. A wireDecoder, one per request, makes each such
// string once and hands it out again (with its boxing as an attribute
// value), which spares most of the decoding's allocations and the
// collector's work on them. It bounds what it keeps, so that a request of
// distinct values costs no more than a map's lookups.
type wireDecoder struct {
	strs  map[string]string // keys, names, ids
	vals  map[string]any    // string attribute values, boxed
	attrs int               // the last span's attribute count
}

// Limits on what a wireDecoder keeps: values longer than internMaxLen
// rarely repeat (rendered objects), and a request with more distinct
// strings than internMaxStrings gains nothing from the rest.
const (
	internMaxLen     = 256
	internMaxStrings = 8192
)

// str returns b as a string, checked as UTF-8.
func (d *wireDecoder) str(b []byte) (string, error) {
	if len(b) > internMaxLen {
		return wireString(b)
	}
	if s, ok := d.strs[string(b)]; ok {
		return s, nil
	}
	s, err := wireString(b)
	if err == nil && len(d.strs) < internMaxStrings {
		if d.strs == nil {
			d.strs = make(map[string]string, 64)
		}
		d.strs[s] = s
	}
	return s, err
}

// value returns b as a string attribute value, checked as UTF-8.
func (d *wireDecoder) value(b []byte) (any, error) {
	if len(b) > internMaxLen {
		s, err := wireString(b)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	if v, ok := d.vals[string(b)]; ok {
		return v, nil
	}
	s, err := wireString(b)
	if err != nil {
		return nil, err
	}
	var v any = s
	if len(d.vals) < internMaxStrings {
		if d.vals == nil {
			d.vals = make(map[string]any, 256)
		}
		d.vals[s] = v
	}
	return v, nil
}

// id returns the id b in lowercase hex; ids that repeat (trace and
// parent ids) are made once.
func (d *wireDecoder) id(b []byte) string {
	var buf [32]byte
	if len(b) > len(buf)/2 {
		return hex.EncodeToString(b)
	}
	h := buf[:hex.Encode(buf[:], b)]
	if s, ok := d.strs[string(h)]; ok {
		return s
	}
	s := string(h)
	if len(d.strs) < internMaxStrings {
		if d.strs == nil {
			d.strs = make(map[string]string, 64)
		}
		d.strs[s] = s
	}
	return s
}

// count returns how many length-delimited fields num the message b has
// (0 if it is malformed: the decoding then says so).
func count(b []byte, num protowire.Number) int {
	n := 0
	for len(b) > 0 {
		f, err := nextField(b)
		if err != nil {
			return 0
		}
		if f.is(num, protowire.BytesType) {
			n++
		}
		b = f.rest
	}
	return n
}

// decodeTraces flattens the spans of an encoded
// ExportTraceServiceRequest, in order.
func decodeTraces(req []byte) ([]Span, error) {
	var out []Span
	var d wireDecoder
	err := fields(req, func(f wireField) error {
		if !f.is(fieldResourceSpans, protowire.BytesType) {
			return nil
		}
		var err error
		out, err = d.resourceSpans(f.b, out)
		return err
	})
	return out, err
}

func (d *wireDecoder) resourceSpans(b []byte, out []Span) ([]Span, error) {
	// The resource may follow the scope spans on the wire: read it first.
	res := map[string]any{}
	err := fields(b, func(f wireField) error {
		if !f.is(wireResourceSpansResource, protowire.BytesType) {
			return nil
		}
		return fields(f.b, func(g wireField) error {
			if g.is(wireResourceAttributes, protowire.BytesType) {
				return d.keyValue(g.b, res)
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	err = fields(b, func(f wireField) error {
		if !f.is(wireResourceSpansScopeSpans, protowire.BytesType) {
			return nil
		}
		var err error
		out, err = d.scopeSpans(f.b, res, out)
		return err
	})
	return out, err
}

func (d *wireDecoder) scopeSpans(b []byte, res map[string]any, out []Span) ([]Span, error) {
	scope := ""
	err := fields(b, func(f wireField) error {
		if !f.is(wireScopeSpansScope, protowire.BytesType) {
			return nil
		}
		return fields(f.b, func(g wireField) error {
			if g.is(wireScopeName, protowire.BytesType) {
				s, err := d.str(g.b)
				scope = s
				return err
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	out = slices.Grow(out, count(b, wireScopeSpansSpans))
	err = fields(b, func(f wireField) error {
		if !f.is(wireScopeSpansSpans, protowire.BytesType) {
			return nil
		}
		// Sized as the span before: a method's spans carry the same
		// attributes, and counting them first costs a pass over the span.
		sp := Span{Attrs: make(map[string]any, d.attrs), Resource: res, Scope: scope}
		if err := d.span(f.b, &sp); err != nil {
			return err
		}
		d.attrs = len(sp.Attrs)
		out = append(out, sp)
		return nil
	})
	return out, err
}

// span fills sp from the encoded Span b.
func (d *wireDecoder) span(b []byte, sp *Span) error {
	var start, end uint64
	var kind tracepb.Span_SpanKind
	var code tracepb.Status_StatusCode
	for len(b) > 0 {
		f, err := nextField(b)
		if err != nil {
			return err
		}
		b = f.rest
		switch {
		case f.is(wireSpanTraceID, protowire.BytesType):
			sp.TraceID = d.id(f.b)
		case f.is(wireSpanSpanID, protowire.BytesType):
			sp.SpanID = hex.EncodeToString(f.b) // each span's own
		case f.is(wireSpanParentSpanID, protowire.BytesType):
			sp.ParentSpanID = d.id(f.b)
		case f.is(wireSpanName, protowire.BytesType):
			sp.Name, err = d.str(f.b)
		case f.is(wireSpanKind, protowire.VarintType):
			kind = tracepb.Span_SpanKind(int32(f.v))
		case f.is(wireSpanStart, protowire.Fixed64Type):
			start = f.v
		case f.is(wireSpanEnd, protowire.Fixed64Type):
			end = f.v
		case f.is(wireSpanAttributes, protowire.BytesType):
			err = d.keyValue(f.b, sp.Attrs)
		case f.is(wireSpanEvents, protowire.BytesType):
			e := Event{Time: unixNano(0), Attrs: map[string]any{}}
			err = fields(f.b, func(g wireField) error {
				var err error
				switch {
				case g.is(wireEventTime, protowire.Fixed64Type):
					e.Time = unixNano(g.v)
				case g.is(wireEventName, protowire.BytesType):
					e.Name, err = d.str(g.b)
				case g.is(wireEventAttributes, protowire.BytesType):
					err = d.keyValue(g.b, e.Attrs)
				}
				return err
			})
			sp.Events = append(sp.Events, e)
		case f.is(wireSpanLinks, protowire.BytesType):
			l := Link{Attrs: map[string]any{}}
			err = fields(f.b, func(g wireField) error {
				switch {
				case g.is(wireLinkTraceID, protowire.BytesType):
					l.TraceID = d.id(g.b)
				case g.is(wireLinkSpanID, protowire.BytesType):
					l.SpanID = d.id(g.b)
				case g.is(wireLinkAttributes, protowire.BytesType):
					return d.keyValue(g.b, l.Attrs)
				}
				return nil
			})
			sp.Links = append(sp.Links, l)
		case f.is(wireSpanStatus, protowire.BytesType):
			err = fields(f.b, func(g wireField) error {
				var err error
				switch {
				case g.is(wireStatusMessage, protowire.BytesType):
					sp.StatusMsg, err = d.str(g.b)
				case g.is(wireStatusCode, protowire.VarintType):
					code = tracepb.Status_StatusCode(int32(g.v))
				}
				return err
			})
		}
		if err != nil {
			return err
		}
	}
	sp.Start, sp.End = unixNano(start), unixNano(end)
	sp.Kind, sp.StatusCode = kindName(kind), statusName(code)
	return nil
}

// keyValue adds the encoded KeyValue b to m. The loops here and in
// anyValue take no closures: they run for every attribute, and a
// closure's captured variables would each be allocated.
func (d *wireDecoder) keyValue(b []byte, m map[string]any) error {
	var key string
	var first []byte // the value's encoding
	var more [][]byte
	hasValue := false
	for len(b) > 0 {
		f, err := nextField(b)
		if err != nil {
			return err
		}
		switch {
		case f.is(wireKeyValueKey, protowire.BytesType):
			if key, err = d.str(f.b); err != nil {
				return err
			}
		case f.is(wireKeyValueValue, protowire.BytesType):
			if !hasValue {
				first, hasValue = f.b, true
			} else {
				// A value met twice is merged: decode the pieces together.
				if more == nil {
					more = [][]byte{first}
				}
				more = append(more, f.b)
			}
		}
		b = f.rest
	}
	var value any
	if hasValue {
		var err error
		if more == nil {
			value, err = d.anyValue(first, nil)
		} else {
			value, err = d.anyValue(nil, more)
		}
		if err != nil {
			return err
		}
	}
	m[key] = value
	return nil
}

// anyValue decodes an AnyValue given as one encoding (one) or as
// several pieces merged in order: the last oneof member set wins, and a
// message member set more than once is merged.
func (d *wireDecoder) anyValue(one []byte, pieces [][]byte) (any, error) {
	var value any
	var lastMsg protowire.Number
	var msgParts [][]byte
	var msgOne []byte // the only part, the common case
	if pieces == nil {
		pieces = [][]byte{one}[:1:1]
	}
	for _, b := range pieces {
		for len(b) > 0 {
			f, err := nextField(b)
			if err != nil {
				return nil, err
			}
			b = f.rest
			switch {
			case f.is(wireAnyString, protowire.BytesType):
				if value, err = d.value(f.b); err != nil {
					return nil, err
				}
				lastMsg = 0
			case f.is(wireAnyBool, protowire.VarintType):
				value, lastMsg = f.v != 0, 0
			case f.is(wireAnyInt, protowire.VarintType):
				value, lastMsg = int64(f.v), 0
			case f.is(wireAnyDouble, protowire.Fixed64Type):
				value, lastMsg = math.Float64frombits(f.v), 0
			case f.is(wireAnyBytes, protowire.BytesType):
				value, lastMsg = append([]byte{}, f.b...), 0
			case f.is(wireAnyArray, protowire.BytesType), f.is(wireAnyKvlist, protowire.BytesType):
				if lastMsg != f.num {
					lastMsg, msgOne, msgParts = f.num, f.b, nil
				} else {
					if msgParts == nil {
						msgParts = [][]byte{msgOne}
					}
					msgParts = append(msgParts, f.b)
				}
				value = nil
			}
		}
	}
	if lastMsg == 0 {
		return value, nil
	}
	if msgParts == nil {
		msgParts = [][]byte{msgOne}
	}
	if lastMsg == wireAnyArray {
		out := []any{}
		for _, b := range msgParts {
			for len(b) > 0 {
				f, err := nextField(b)
				if err != nil {
					return nil, err
				}
				b = f.rest
				if f.is(wireListValues, protowire.BytesType) {
					v, err := d.anyValue(f.b, nil)
					if err != nil {
						return nil, err
					}
					out = append(out, v)
				}
			}
		}
		return out, nil
	}
	out := map[string]any{}
	for _, b := range msgParts {
		for len(b) > 0 {
			f, err := nextField(b)
			if err != nil {
				return nil, err
			}
			b = f.rest
			if f.is(wireListValues, protowire.BytesType) {
				if err := d.keyValue(f.b, out); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}
