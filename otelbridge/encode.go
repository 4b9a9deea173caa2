package otelbridge

import (
	"math"

	"go.opentelemetry.io/otel/attribute"
	"google.golang.org/protobuf/encoding/protowire"
)

// This file writes OTLP protobuf (opentelemetry/proto/trace/v1/trace.proto,
// common/v1/common.proto, resource/v1/resource.proto) straight from the
// bridge's frames, without building SDK spans or generated messages first:
// a span is encoded once, into the batch that carries it.

// Field numbers of the OTLP messages written here.
const (
	// ResourceSpans
	fResourceSpansResource = 1
	fResourceSpansScope    = 2
	// ScopeSpans
	fScopeSpansScope = 1
	fScopeSpansSpans = 2
	// InstrumentationScope
	fScopeName    = 1
	fScopeVersion = 2
	// Resource
	fResourceAttrs = 1
	// Span
	fSpanTraceID       = 1
	fSpanSpanID        = 2
	fSpanParentID      = 4
	fSpanName          = 5
	fSpanKind          = 6
	fSpanStart         = 7
	fSpanEnd           = 8
	fSpanAttrs         = 9
	fSpanEvents        = 11
	fSpanDroppedEvents = 12
	fSpanLinks         = 13
	fSpanStatus        = 15
	fSpanFlags         = 16
	// Span.Link
	fLinkTraceID = 1
	fLinkSpanID  = 2
	fLinkFlags   = 6
	// Span.Event
	fEventTime  = 1
	fEventName  = 2
	fEventAttrs = 3
	// Status
	fStatusMessage = 2
	fStatusCode    = 3
	// KeyValue
	fKVKey   = 1
	fKVValue = 2
	// AnyValue
	fAnyString = 1
	fAnyBool   = 2
	fAnyInt    = 3
	fAnyDouble = 4
	fAnyArray  = 5
	fAnyKVList = 6
	fAnyBytes  = 7
	// ArrayValue, KeyValueList
	fListValues = 1
)

const (
	spanKindInternal = 1
	statusCodeOK     = 1
	statusCodeError  = 2
	// SpanFlags: the W3C sampled flag, and "is_remote is known (false)".
	spanFlags = 0x01 | 0x100
)

// beginMsg writes the tag of an embedded message and one byte reserved for
// its length; endMsg fills the length in once the body is written.
func beginMsg(b []byte, field protowire.Number) ([]byte, int) {
	b = protowire.AppendTag(b, field, protowire.BytesType)
	b = append(b, 0)
	return b, len(b)
}

// endMsg writes the length of the message whose body starts at start,
// moving the body when the length takes more than the reserved byte.
func endMsg(b []byte, start int) []byte {
	n := len(b) - start
	if n < 0x80 {
		b[start-1] = byte(n)
		return b
	}
	k := protowire.SizeVarint(uint64(n))
	b = append(b, make([]byte, k-1)...)
	copy(b[start+k-1:], b[start:start+n])
	protowire.AppendVarint(b[:start-1], uint64(n))
	return b
}

func appendString(b []byte, field protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, field, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendBytes(b []byte, field protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, field, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

func appendFixed64(b []byte, field protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, field, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, v)
}

func appendVarint(b []byte, field protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, field, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

// appendKeyValue writes kv as a KeyValue in field.
func appendKeyValue(b []byte, field protowire.Number, kv attribute.KeyValue) []byte {
	b, kvStart := beginMsg(b, field)
	b = appendString(b, fKVKey, string(kv.Key))
	b, vStart := beginMsg(b, fKVValue)
	b = appendAnyValue(b, kv.Value)
	b = endMsg(b, vStart)
	return endMsg(b, kvStart)
}

func appendKeyValues(b []byte, field protowire.Number, kvs []attribute.KeyValue) []byte {
	for _, kv := range kvs {
		b = appendKeyValue(b, field, kv)
	}
	return b
}

// appendAnyValue writes the body of an AnyValue holding v.
func appendAnyValue(b []byte, v attribute.Value) []byte {
	switch v.Type() {
	case attribute.BOOL:
		return appendVarint(b, fAnyBool, protowire.EncodeBool(v.AsBool()))
	case attribute.INT64:
		return appendVarint(b, fAnyInt, uint64(v.AsInt64()))
	case attribute.FLOAT64:
		return appendFixed64(b, fAnyDouble, math.Float64bits(v.AsFloat64()))
	case attribute.STRING:
		return appendString(b, fAnyString, v.AsString())
	case attribute.BYTESLICE:
		return appendBytes(b, fAnyBytes, v.AsByteSlice())
	case attribute.BOOLSLICE:
		return appendArray(b, v.AsBoolSlice(), func(b []byte, x bool) []byte {
			return appendVarint(b, fAnyBool, protowire.EncodeBool(x))
		})
	case attribute.INT64SLICE:
		return appendArray(b, v.AsInt64Slice(), func(b []byte, x int64) []byte {
			return appendVarint(b, fAnyInt, uint64(x))
		})
	case attribute.FLOAT64SLICE:
		return appendArray(b, v.AsFloat64Slice(), func(b []byte, x float64) []byte {
			return appendFixed64(b, fAnyDouble, math.Float64bits(x))
		})
	case attribute.STRINGSLICE:
		return appendArray(b, v.AsStringSlice(), func(b []byte, x string) []byte {
			return appendString(b, fAnyString, x)
		})
	case attribute.SLICE:
		return appendArray(b, v.AsSlice(), appendAnyValue)
	case attribute.MAP:
		b, start := beginMsg(b, fAnyKVList)
		b = appendKeyValues(b, fListValues, v.AsMap())
		return endMsg(b, start)
	}
	return b // EMPTY: an AnyValue with no value set
}

// appendArray writes an ArrayValue of xs, each element an AnyValue body
// written by elem.
func appendArray[T any](b []byte, xs []T, elem func([]byte, T) []byte) []byte {
	b, start := beginMsg(b, fAnyArray)
	for _, x := range xs {
		var vStart int
		b, vStart = beginMsg(b, fListValues)
		b = elem(b, x)
		b = endMsg(b, vStart)
	}
	return endMsg(b, start)
}

// encodeResource writes the resource field of ResourceSpans.
func encodeResource(attrs []attribute.KeyValue) []byte {
	b, start := beginMsg(nil, fResourceSpansResource)
	b = appendKeyValues(b, fResourceAttrs, attrs)
	return endMsg(b, start)
}

// encodeScope writes the scope field of ScopeSpans.
func encodeScope(name, version string) []byte {
	b, start := beginMsg(nil, fScopeSpansScope)
	b = appendString(b, fScopeName, name)
	if version != "" {
		b = appendString(b, fScopeVersion, version)
	}
	return endMsg(b, start)
}
