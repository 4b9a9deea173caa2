package otelbridge

import (
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// Event names.
const (
	// EventException is the OpenTelemetry exception event: on the span of
	// the throwing method, and on every span the exception unwinds.
	EventException = "exception"
	// EventExceptionCaught marks the span whose method caught the
	// exception; that span is not failed.
	EventExceptionCaught = "exception.caught"
)

// Exception attribute keys beyond the semantic conventions.
const (
	KeyExceptionMessageNull = attribute.Key("dotnet.exception.message_null")
	KeyInnerType            = attribute.Key("dotnet.exception.inner.type")
	KeyInnerMessage         = attribute.Key("dotnet.exception.inner.message")
)

// Exception is what the profiler read of a thrown exception object.
type Exception struct {
	Type        string // full runtime type name, generic arguments included
	Message     string // System.Exception._message
	MessageNull bool   // _message was null (built without a message)
	// MessageUnknown: the message could not be read.
	MessageUnknown bool
	InnerType      string // _innerException's type, "" for none
	InnerMessage   string
}

// Description is the span status text: "Type: message".
func (e *Exception) Description() string {
	if e.MessageNull || e.MessageUnknown || e.Message == "" {
		return e.Type
	}
	return e.Type + ": " + e.Message
}

func (e *Exception) attrs(stack string) []attribute.KeyValue {
	a := []attribute.KeyValue{attribute.String("exception.type", e.Type)}
	switch {
	case e.MessageNull:
		a = append(a, KeyExceptionMessageNull.Bool(true))
	case !e.MessageUnknown:
		a = append(a, attribute.String("exception.message", e.Message))
	}
	if stack != "" {
		a = append(a, attribute.String("exception.stacktrace", stack))
	}
	if e.InnerType != "" {
		a = append(a, KeyInnerType.String(e.InnerType), KeyInnerMessage.String(e.InnerMessage))
	}
	return a
}

// Throw records an exception thrown on t at ts: an exception event on the
// innermost open span, with the traced frames open at the throw as its
// stack trace (innermost first; the frames the exception unwinds lead it).
func (b *Bridge) Throw(t *Thread, ts int64, e Exception) {
	if len(t.stack) == 0 {
		return
	}
	var sb strings.Builder
	for i := len(t.stack) - 1; i >= 0; i-- {
		sb.WriteString("   at ")
		sb.WriteString(t.stack[i].method.Frame)
		if i > 0 {
			sb.WriteByte('\n')
		}
	}
	t.exc = &e
	t.excAttrs = e.attrs(sb.String())
	top := &t.stack[len(t.stack)-1]
	top.events.add(event{EventException, ts, t.excAttrs})
	t.excSpan = top.spanID
}

// Catch records that t's innermost open span caught the exception in
// flight. The span stays open and is not failed.
func (b *Bridge) Catch(t *Thread, ts int64) {
	if len(t.stack) == 0 {
		return
	}
	var attrs []attribute.KeyValue
	if t.exc != nil {
		attrs = append(attrs, attribute.String("exception.type", t.exc.Type))
		if !t.exc.MessageNull && !t.exc.MessageUnknown {
			attrs = append(attrs, attribute.String("exception.message", t.exc.Message))
		}
	}
	top := &t.stack[len(t.stack)-1]
	top.events.add(event{EventExceptionCaught, ts, attrs})
	t.exc, t.excAttrs, t.excSpan = nil, nil, trace.SpanID{}
}
