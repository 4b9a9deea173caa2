package capture

import (
	"encoding/binary"
	"testing"
	"unicode/utf16"
)

func TestDecodeEnterParent(t *testing.T) {
	p := make([]byte, 8+16+8)
	binary.LittleEndian.PutUint32(p, 7)
	for i := 0; i < 16; i++ {
		p[8+i] = byte(i + 1)
	}
	for i := 0; i < 8; i++ {
		p[24+i] = byte(0xa0 + i)
	}
	e, err := DecodeEnter(Record{Kind: KindEnter, Flags: FlagRoot | FlagParent, Payload: p})
	if err != nil || e.Func != 7 || e.TraceID[0] != 1 || e.TraceID[15] != 16 || e.Parent[0] != 0xa0 || e.Parent[7] != 0xa7 {
		t.Fatalf("%+v, %v", e, err)
	}
	if _, err := DecodeEnter(Record{Kind: KindEnter, Flags: FlagRoot | FlagParent, Payload: p[:28]}); err == nil {
		t.Fatal("a truncated parent span id decoded")
	}
}

// activityPayload lays a record out as profiler/ambient.c clr_ambient_stop
// does; nil strings are null.
func activityPayload(start uint64, flags, hasSource, hasCaller byte, strs ...*string) []byte {
	p := make([]byte, 24)
	binary.LittleEndian.PutUint32(p, 3)
	binary.LittleEndian.PutUint64(p[8:], start)
	p[16], p[17], p[18] = flags, hasSource, hasCaller
	for _, s := range strs {
		h := make([]byte, 4)
		if s == nil {
			binary.LittleEndian.PutUint16(h, 0xFFFF)
			p = append(p, h...)
			continue
		}
		u := utf16.Encode([]rune(*s))
		binary.LittleEndian.PutUint16(h, uint16(len(u)))
		p = append(p, h...)
		b := make([]byte, (2*len(u)+3)&^3)
		for i, c := range u {
			binary.LittleEndian.PutUint16(b[2*i:], c)
		}
		p = append(p, b...)
	}
	return p
}

func TestDecodeActivity(t *testing.T) {
	str := func(s string) *string { return &s }
	p := activityPayload(42, 1, 1, 1, str("0af7651916cd43dd8448eb211c80319c"), str("00f067aa0ba902b7"), nil,
		str("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"), str("Acme.op"), str(""), str("b7ad6b7169203331"))
	a, err := DecodeActivity(Record{Kind: KindActivity, Payload: p})
	if err != nil {
		t.Fatal(err)
	}
	if a.Func != 3 || a.StartTime != 42 || a.Flags != 1 || !a.HasSource || !a.HasCaller || a.TraceID != "0af7651916cd43dd8448eb211c80319c" ||
		a.SpanID != "00f067aa0ba902b7" || !a.Null[2] || a.Null[5] || a.Name != "Acme.op" || a.Source != "" ||
		a.ParentActivitySpanID != "b7ad6b7169203331" || a.ParentID[:3] != "00-" {
		t.Fatalf("%+v", a)
	}
	for n := 0; n < len(p); n += 13 {
		if _, err := DecodeActivity(Record{Kind: KindActivity, Payload: p[:n]}); err == nil {
			t.Fatalf("%d of %d bytes decoded", n, len(p))
		}
	}
}

func TestDecodeEnterLink(t *testing.T) {
	p := make([]byte, 8+16+24)
	binary.LittleEndian.PutUint32(p, 9)
	for i := 0; i < 16; i++ {
		p[24+i] = byte(0x10 + i)
	}
	for i := 0; i < 8; i++ {
		p[40+i] = byte(0xb0 + i)
	}
	e, err := DecodeEnter(Record{Kind: KindEnter, Flags: FlagRoot | FlagLink, Payload: p})
	if err != nil || e.Func != 9 || e.LinkTrace[0] != 0x10 || e.LinkTrace[15] != 0x1f || e.LinkSpan[0] != 0xb0 || e.LinkSpan[7] != 0xb7 {
		t.Fatalf("%+v, %v", e, err)
	}
	if _, err := DecodeEnter(Record{Kind: KindEnter, Flags: FlagRoot | FlagLink, Payload: p[:40]}); err == nil {
		t.Fatal("a truncated span link decoded")
	}
}
