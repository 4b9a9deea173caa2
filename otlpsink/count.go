package otlpsink

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
)

// A count-only sink does not decode requests: it walks their wire format
// and counts the spans, so a benchmark's receiver costs little next to the
// exporter it measures. Malformed requests are still refused.

// rawMessage is a request or response kept as its wire bytes.
type rawMessage struct{ b []byte }

// rawCodec passes messages through as bytes. It names itself "proto" so
// clients sending application/grpc+proto reach it.
type rawCodec struct{}

func (rawCodec) Name() string { return "proto" }

func (rawCodec) Marshal(v any) ([]byte, error) {
	m, ok := v.(*rawMessage)
	if !ok {
		return nil, fmt.Errorf("otlpsink: cannot marshal %T", v)
	}
	return m.b, nil
}

func (rawCodec) Unmarshal(data []byte, v any) error {
	m, ok := v.(*rawMessage)
	if !ok {
		return fmt.Errorf("otlpsink: cannot unmarshal into %T", v)
	}
	m.b = data
	return nil
}

// countService is the TraceService of a count-only sink.
var countService = exportService(func(s *Sink, ctx context.Context, req []byte) error {
	return s.handle(ctx, func() (received, error) {
		traces := map[string]int{}
		n, err := countSpansByTrace(req, traces)
		if err != nil {
			return received{}, status.Error(codes.InvalidArgument, err.Error())
		}
		return received{n: n, traces: traces}, nil
	})
})

// Field numbers on the path ExportTraceServiceRequest.resource_spans ->
// ResourceSpans.scope_spans -> ScopeSpans.spans.
const (
	fieldResourceSpans = 1
	fieldScopeSpans    = 2
	fieldSpans         = 2
)

var errMalformed = errors.New("otlpsink: malformed ExportTraceServiceRequest")

// countSpans counts the spans of an encoded ExportTraceServiceRequest.
func countSpans(req []byte) (int, error) { return countSpansByTrace(req, nil) }

// fieldTraceID is Span.trace_id.
const fieldTraceID = 1

// countSpansByTrace counts the spans of an encoded request and, when
// traces is not nil, adds each span to its trace's count there.
func countSpansByTrace(req []byte, traces map[string]int) (int, error) {
	n := 0
	err := eachField(req, fieldResourceSpans, func(rs []byte) error {
		return eachField(rs, fieldScopeSpans, func(ss []byte) error {
			return eachField(ss, fieldSpans, func(sp []byte) error {
				n++
				if traces == nil {
					return nil
				}
				return eachField(sp, fieldTraceID, func(id []byte) error { traces[string(id)]++; return nil })
			})
		})
	})
	return n, err
}

// eachField calls f with the body of every length-delimited field num of
// the message b, checking that all of b is well-formed.
func eachField(b []byte, num protowire.Number, f func([]byte) error) error {
	for len(b) > 0 {
		n, typ, tl := protowire.ConsumeTag(b)
		if tl < 0 {
			return errMalformed
		}
		if n == num && typ == protowire.BytesType {
			v, vl := protowire.ConsumeBytes(b[tl:])
			if vl < 0 {
				return errMalformed
			}
			if err := f(v); err != nil {
				return err
			}
			b = b[tl+vl:]
			continue
		}
		vl := protowire.ConsumeFieldValue(n, typ, b[tl:])
		if vl < 0 {
			return errMalformed
		}
		b = b[tl+vl:]
	}
	return nil
}
