package otlpsink

import (
	"encoding/hex"
	"errors"
	"reflect"
	"testing"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// The oracle: the request decoded into the generated messages, then read
// field by field. decodeTraces must give the same Spans.

func oracleSpans(t testing.TB, wire []byte) ([]Span, error) {
	var req collectortrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(wire, &req); err != nil {
		return nil, err
	}
	var out []Span
	for _, rs := range req.GetResourceSpans() {
		res := attrMap(rs.GetResource().GetAttributes())
		for _, ss := range rs.GetScopeSpans() {
			for _, sp := range ss.GetSpans() {
				out = append(out, flatten(sp, res, ss.GetScope().GetName()))
			}
		}
	}
	return out, nil
}

func flatten(sp *tracepb.Span, res map[string]any, scope string) Span {
	out := Span{
		TraceID:    hex.EncodeToString(sp.GetTraceId()),
		SpanID:     hex.EncodeToString(sp.GetSpanId()),
		Name:       sp.GetName(),
		Kind:       kindName(sp.GetKind()),
		Start:      unixNano(sp.GetStartTimeUnixNano()),
		End:        unixNano(sp.GetEndTimeUnixNano()),
		Attrs:      attrMap(sp.GetAttributes()),
		StatusCode: statusName(sp.GetStatus().GetCode()),
		StatusMsg:  sp.GetStatus().GetMessage(),
		Resource:   res,
		Scope:      scope,
	}
	if len(sp.GetParentSpanId()) > 0 {
		out.ParentSpanID = hex.EncodeToString(sp.GetParentSpanId())
	}
	for _, e := range sp.GetEvents() {
		out.Events = append(out.Events, Event{
			Name:  e.GetName(),
			Time:  unixNano(e.GetTimeUnixNano()),
			Attrs: attrMap(e.GetAttributes()),
		})
	}
	for _, l := range sp.GetLinks() {
		out.Links = append(out.Links, Link{
			TraceID: hex.EncodeToString(l.GetTraceId()),
			SpanID:  hex.EncodeToString(l.GetSpanId()),
			Attrs:   attrMap(l.GetAttributes()),
		})
	}
	return out
}

func str(s string) *commonpb.AnyValue {
	return &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: s}}
}

func kv(k string, v *commonpb.AnyValue) *commonpb.KeyValue {
	return &commonpb.KeyValue{Key: k, Value: v}
}

// wireFixture is a request using every field the flattening reads, and
// some it does not.
func wireFixture() *collectortrace.ExportTraceServiceRequest {
	id := func(s string) []byte { b, _ := hex.DecodeString(s); return b }
	return &collectortrace.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{
		{
			Resource: &resourcepb.Resource{Attributes: []*commonpb.KeyValue{kv("service.name", str("shop")), kv("dup", str("a")), kv("dup", str("b"))}},
			ScopeSpans: []*tracepb.ScopeSpans{
				{Scope: &commonpb.InstrumentationScope{Name: "clrotel", Version: "1"}, Spans: []*tracepb.Span{
					{
						TraceId: id("4bf92f3577b34da6a3ce929d0e0e4736"), SpanId: id("00f067aa0ba902b7"), TraceState: "x=y",
						Name: "Main(String[] args)", Kind: tracepb.Span_SPAN_KIND_SERVER, StartTimeUnixNano: 1_700_000_000_000_000_000, EndTimeUnixNano: 1_700_000_000_500_000_000,
						Attributes: []*commonpb.KeyValue{
							kv("s", str("héllo \"q\"\n")),
							kv("i", &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{IntValue: -42}}),
							kv("d", &commonpb.AnyValue{Value: &commonpb.AnyValue_DoubleValue{DoubleValue: 0.5}}),
							kv("b", &commonpb.AnyValue{Value: &commonpb.AnyValue_BoolValue{BoolValue: true}}),
							kv("f", &commonpb.AnyValue{Value: &commonpb.AnyValue_BoolValue{BoolValue: false}}),
							kv("bytes", &commonpb.AnyValue{Value: &commonpb.AnyValue_BytesValue{BytesValue: []byte{1, 2}}}),
							kv("nobytes", &commonpb.AnyValue{Value: &commonpb.AnyValue_BytesValue{}}),
							kv("arr", &commonpb.AnyValue{Value: &commonpb.AnyValue_ArrayValue{ArrayValue: &commonpb.ArrayValue{Values: []*commonpb.AnyValue{str("x"), {}, {Value: &commonpb.AnyValue_IntValue{IntValue: 1}}}}}}),
							kv("empty", &commonpb.AnyValue{Value: &commonpb.AnyValue_ArrayValue{ArrayValue: &commonpb.ArrayValue{}}}),
							kv("kv", &commonpb.AnyValue{Value: &commonpb.AnyValue_KvlistValue{KvlistValue: &commonpb.KeyValueList{Values: []*commonpb.KeyValue{kv("k", str("v")), kv("n", nil)}}}}),
							kv("unset", &commonpb.AnyValue{}),
							kv("novalue", nil),
						},
						DroppedAttributesCount: 3,
						Events: []*tracepb.Span_Event{
							{TimeUnixNano: 1_700_000_000_100_000_000, Name: "exception", Attributes: []*commonpb.KeyValue{kv("exception.type", str("E"))}},
							{Name: "bare"},
						},
						Links:  []*tracepb.Span_Link{{TraceId: id("01"), SpanId: id("02"), Attributes: []*commonpb.KeyValue{kv("l", str("1"))}}, {}},
						Status: &tracepb.Status{Code: tracepb.Status_STATUS_CODE_ERROR, Message: "boom"},
						Flags:  1,
					},
					{TraceId: id("4bf92f3577b34da6a3ce929d0e0e4736"), SpanId: id("01"), ParentSpanId: id("00f067aa0ba902b7"), Name: "Work"},
				}},
				{Spans: []*tracepb.Span{{}}}, // no scope, an empty span
			},
		},
		{ScopeSpans: []*tracepb.ScopeSpans{{Scope: &commonpb.InstrumentationScope{Name: "other"}, Spans: []*tracepb.Span{{Name: "no resource", Status: &tracepb.Status{Code: tracepb.Status_STATUS_CODE_OK}}}}}},
	}}
}

func TestDecodeTraces(t *testing.T) {
	wire, err := proto.Marshal(wireFixture())
	if err != nil {
		t.Fatal(err)
	}
	// The same request with its fields repeated or out of order, as a
	// peer may send it: a second resource (merged), the resource after
	// the spans, a span's status met twice (merged), the last name wins.
	var reordered []byte
	rs := wireFixture().ResourceSpans[0]
	res, _ := proto.Marshal(&resourcepb.Resource{Attributes: []*commonpb.KeyValue{kv("extra", str("1"))}})
	var body []byte
	for _, ss := range rs.ScopeSpans {
		b, _ := proto.Marshal(ss)
		body = protowire.AppendTag(body, 2, protowire.BytesType)
		body = protowire.AppendBytes(body, b)
	}
	r0, _ := proto.Marshal(rs.Resource)
	body = protowire.AppendTag(body, 1, protowire.BytesType)
	body = protowire.AppendBytes(body, r0)
	body = protowire.AppendTag(body, 1, protowire.BytesType)
	body = protowire.AppendBytes(body, res)
	reordered = protowire.AppendTag(reordered, 1, protowire.BytesType)
	reordered = protowire.AppendBytes(reordered, body)
	span, _ := proto.Marshal(&tracepb.Span{Name: "first", Status: &tracepb.Status{Code: tracepb.Status_STATUS_CODE_ERROR}})
	span2, _ := proto.Marshal(&tracepb.Span{Name: "second", Status: &tracepb.Status{Message: "msg"}})
	ss := protowire.AppendTag(nil, 2, protowire.BytesType)
	ss = protowire.AppendBytes(ss, append(span, span2...))
	rs2 := protowire.AppendTag(nil, 2, protowire.BytesType)
	rs2 = protowire.AppendBytes(rs2, ss)
	reordered = protowire.AppendTag(reordered, 1, protowire.BytesType)
	reordered = protowire.AppendBytes(reordered, rs2)

	for name, w := range map[string][]byte{"in order": wire, "reordered and repeated": reordered} {
		t.Run(name, func(t *testing.T) {
			want, err := oracleSpans(t, w)
			if err != nil {
				t.Fatal(err)
			}
			got, err := decodeTraces(w)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decodeTraces:\n got %#v\nwant %#v", got, want)
			}
		})
	}
}

func TestDecodeTracesRefuses(t *testing.T) {
	// A request whose second span has the attribute key=value, the
	// first one like it with valid strings the decoder keeps.
	withAttr := func(key, value string) *collectortrace.ExportTraceServiceRequest {
		return &collectortrace.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{{ScopeSpans: []*tracepb.ScopeSpans{{Spans: []*tracepb.Span{
			{Name: "a", Attributes: []*commonpb.KeyValue{kv("k\u00e9", str("v\u00e9"))}},
			{Name: "b", Attributes: []*commonpb.KeyValue{kv(key, str(value))}},
		}}}}}}
	}
	span := func(b []byte) []byte { // b as the only span of a request
		ss := protowire.AppendBytes(protowire.AppendTag(nil, wireScopeSpansSpans, protowire.BytesType), b)
		rs := protowire.AppendBytes(protowire.AppendTag(nil, wireResourceSpansScopeSpans, protowire.BytesType), ss)
		return protowire.AppendBytes(protowire.AppendTag(nil, fieldResourceSpans, protowire.BytesType), rs)
	}
	for _, tt := range []struct {
		name string
		wire []byte
		want error
	}{
		{"truncated", []byte{0x0a, 0x05, 0x12}, errMalformed},
		{"length past the end, one-byte length", []byte{0x0a, 0x7f, 0x12}, errMalformed},
		{"length past the end, longer length", []byte{0x0a, 0x80, 0x01, 0x12}, errMalformed},
		{"field number 0", []byte{0x02, 0x00}, errMalformed},
		{"tag alone", []byte{0x08}, errMalformed},
		{"varint cut", []byte{0x08, 0x80}, errMalformed},
		{"span field truncated", span([]byte{0x2a, 0x03, 'a'}), errMalformed},
		{"span kind cut", span([]byte{0x30}), errMalformed},
		{"end group alone", []byte{0x0c}, errMalformed},
		{"invalid utf8 name", mustMarshal(t, &collectortrace.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{{ScopeSpans: []*tracepb.ScopeSpans{{Spans: []*tracepb.Span{{Name: "ok"}}}}}}}, "ok", "\xff\xfe"), errInvalidUTF8},
		// The same bytes but for one, after the valid string was kept.
		{"invalid utf8 key", mustMarshal(t, withAttr("kQQ", "v"), "kQQ", "k\xc3\x28"), errInvalidUTF8},
		{"invalid utf8 value", mustMarshal(t, withAttr("k", "vQQ"), "vQQ", "v\xc3\x28"), errInvalidUTF8},
	} {
		spans, err := decodeTraces(tt.wire)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: decodeTraces = %d spans, %v; want %v", tt.name, len(spans), err, tt.want)
		}
	}
}

// mustMarshal encodes m with the bytes of the string old replaced by new
// (of the same length), to make what a marshaller will not.
func mustMarshal(t *testing.T, m proto.Message, old, new string) []byte {
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	i := string(b)
	for k := 0; k+len(old) <= len(i); k++ {
		if i[k:k+len(old)] == old {
			return append(append(append([]byte{}, b[:k]...), new...), b[k+len(old):]...)
		}
	}
	t.Fatalf("%q not in the encoding", old)
	return nil
}

// FuzzDecodeTraces: on any input, decodeTraces agrees with the oracle
// whenever the oracle decodes it.
func FuzzDecodeTraces(f *testing.F) {
	w, _ := proto.Marshal(wireFixture())
	f.Add(w)
	f.Fuzz(func(t *testing.T, b []byte) {
		want, err := oracleSpans(t, b)
		got, gerr := decodeTraces(b)
		if err != nil {
			return // the oracle refuses more (strings the flattening never reads)
		}
		if gerr != nil {
			t.Fatalf("decodeTraces refused what the oracle decodes: %v", gerr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeTraces:\n got %#v\nwant %#v", got, want)
		}
	})
}
