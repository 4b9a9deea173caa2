package otlpsink

import (
	"testing"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

func TestCountSpans(t *testing.T) {
	req := &collectortrace.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{
		{ScopeSpans: []*tracepb.ScopeSpans{{Spans: []*tracepb.Span{{Name: "a"}, {Name: "b"}}}, {Spans: []*tracepb.Span{{Name: "c"}}}}},
		{ScopeSpans: []*tracepb.ScopeSpans{{Spans: []*tracepb.Span{{Name: "d", Attributes: nil}}}}},
		{},
	}}
	good, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		in      []byte
		want    int
		wantErr bool
	}{
		{"empty request", nil, 0, false},
		{"four spans", good, 4, false},
		{"truncated", good[:len(good)-3], 0, true},
		{"length past the end", []byte{0x0a, 0x7f, 0x00}, 0, true},
		{"bad tag", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := countSpans(tt.in)
			if (err != nil) != tt.wantErr || (!tt.wantErr && n != tt.want) {
				t.Fatalf("countSpans = %d, %v; want %d, error %v", n, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestCountSpansByTrace(t *testing.T) {
	a, b := make([]byte, 16), make([]byte, 16)
	a[0], b[0] = 1, 2
	req := &collectortrace.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{
		{ScopeSpans: []*tracepb.ScopeSpans{{Spans: []*tracepb.Span{{TraceId: a, Name: "x"}, {TraceId: b}}}, {Spans: []*tracepb.Span{{TraceId: a}}}}},
	}}
	raw, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	traces := map[string]int{}
	n, err := countSpansByTrace(raw, traces)
	if err != nil || n != 3 || traces[string(a)] != 2 || traces[string(b)] != 1 || len(traces) != 2 {
		t.Fatalf("countSpansByTrace = %d, %v, %v", n, err, traces)
	}
}
