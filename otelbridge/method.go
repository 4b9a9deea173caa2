package otelbridge

import (
	"sync/atomic"

	"github.com/clrotel/clrotel/methodmetrics"

	"go.opentelemetry.io/otel/attribute"
)

// Method is what a span is named and labelled after: one traced method, or
// one exact instantiation of a shared generic method. The profiler builds it
// once and reuses it for every call.
type Method struct {
	// SpanName is the call-stack form
	// Module!Namespace.Type.Method(ParamType name, ...).
	SpanName string
	// Attrs are the attributes every span of the method carries
	// (code.function.name, the return type, module and assembly).
	Attrs []attribute.KeyValue
	// Frame is the method as a stack-trace line shows it:
	// Namespace.Type.Method(ParamType name, ...).
	Frame string
	// Function is Namespace.Type.Method (code.function.name); empty for
	// spans that are not a method's (an app's Activity).
	Function string
	// Kind is the spans' kind as OTLP numbers it (2 server, 3 client, 4
	// producer, 5 consumer); 0 or 1: internal.
	Kind int

	enc    atomic.Pointer[[]byte] // SpanName and Attrs as Span fields, written at the first span
	series atomic.Pointer[methodmetrics.Series]
}

// MetricSeries returns the method's series in r, kept after the first
// call (two first calls at once get the same series from r).
func (m *Method) MetricSeries(r *methodmetrics.Registry) *methodmetrics.Series {
	if s := m.series.Load(); s != nil {
		return s
	}
	s := r.Series(m.SpanName, m.Function, m.Kind)
	m.series.Store(s)
	return s
}

// encoded returns the span name and the method's attributes as encoded
// Span fields. They are encoded at the first span, on the exporter's side,
// not when the method is named on the app's thread that JIT-compiles it
// (a method folded or never sampled is never encoded). Two first spans at
// once encode the same bytes twice.
func (m *Method) encoded() []byte {
	if p := m.enc.Load(); p != nil {
		return *p
	}
	b := appendKeyValues(appendString(nil, fSpanName, m.SpanName), fSpanAttrs, m.Attrs)
	m.enc.Store(&b)
	return b
}

// Attribute keys of the span contract, beyond the semantic conventions.
const (
	KeyFunctionName = attribute.Key("code.function.name")
	KeyReturnType   = attribute.Key("dotnet.method.return_type")
	KeyModule       = attribute.Key("dotnet.module")
	KeyAssembly     = attribute.Key("dotnet.assembly")
	// KeyCompiledName is the name metadata gives a method the compiler
	// generated (a lambda), whose span is named as the user wrote it.
	KeyCompiledName = attribute.Key("dotnet.method.compiled_name")
	KeyThreadID     = attribute.Key("thread.id")
	KeyEndReason    = attribute.Key("clrotel.end_reason")
	// KeyDroppedShort counts the descendants dropped as shorter than the
	// minimum duration.
	KeyDroppedShort = attribute.Key("clrotel.dropped_short_spans")
	// KeyDroppedCalls, on root spans: calls the capture could not record
	// so far in the process (full buffers, no thread slot).
	KeyDroppedCalls = attribute.Key("clrotel.dropped_calls")
)

// MethodInfo is the parts a Method is made of.
type MethodInfo struct {
	Module       string // module file name, e.g. Shop.dll
	Assembly     string // assembly simple name, e.g. Shop
	FunctionName string // Namespace.Type.Method, generic arguments included
	Params       string // "Acme.Shop.Item item, Int32 quantity"
	ReturnType   string // e.g. Void, Int32
	// CompiledName: FunctionName as metadata has it, when FunctionName
	// reads as the user wrote a compiler-generated method ("": the same).
	CompiledName string
}

// NewMethod builds the span name and fixed attributes of a method.
func NewMethod(mi MethodInfo) *Method {
	frame := mi.FunctionName + "(" + mi.Params + ")"
	name := frame
	if mi.Module != "" {
		name = mi.Module + "!" + frame
	}
	attrs := make([]attribute.KeyValue, 1, 4)
	attrs[0] = KeyFunctionName.String(mi.FunctionName)
	if mi.ReturnType != "" {
		attrs = append(attrs, KeyReturnType.String(mi.ReturnType))
	}
	if mi.Module != "" {
		attrs = append(attrs, KeyModule.String(mi.Module))
	}
	if mi.Assembly != "" {
		attrs = append(attrs, KeyAssembly.String(mi.Assembly))
	}
	if mi.CompiledName != "" {
		attrs = append(attrs, KeyCompiledName.String(mi.CompiledName))
	}
	return &Method{SpanName: name, Attrs: attrs, Frame: frame, Function: mi.FunctionName}
}
