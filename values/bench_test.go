package values

import (
	"fmt"
	"testing"

	"go.opentelemetry.io/otel/attribute"
)

// serviceStream is the value stream of a request handler's argument as a
// hand-written HTTP service passes it: a framework context object whose
// fields are framework objects of a dozen fields each, strings, numbers,
// nulls and objects past the depth limit.
func serviceStream() ([]byte, fakeClasses) {
	cls := fakeClasses{}
	e := &enc{}
	next := uint64(100)
	class := func(name string, fields int) uint64 {
		next++
		ci := ClassInfo{Name: name}
		for i := 0; i < fields; i++ {
			ci.Fields = append(ci.Fields, Field{Name: fmt.Sprintf("_field%d", i)})
		}
		cls[next] = ci
		return next
	}
	inner := func(name string) {
		id := class(name, 16)
		e.obj(id, 16)
		for i := 0; i < 16; i++ {
			switch i % 6 {
			case 0:
				e.u8(tagDepth).u64(id)
			case 1:
				e.prim(KindI4, uint64(i))
			case 2:
				e.str(fmt.Sprintf("/item?id=%d&name=value", i), 99)
			case 3:
				e.u8(tagNull)
			case 4:
				e.prim(KindBool, 1)
			case 5:
				e.u8(tagDepth).u64(id)
			}
		}
	}
	top := class("System.Net.HttpListenerContext", 8)
	e.obj(top, 8)
	inner("System.Net.HttpListener")
	inner("System.Net.HttpListenerResponse")
	e.u8(tagNull)
	inner("System.Net.HttpListenerRequest")
	e.prim(KindI4, 1)
	inner("System.Net.HttpConnection")
	e.prim(KindI4, 400)
	e.u8(tagNull)
	e.str("/item?id=3", 99)
	return e.b, cls
}

func BenchmarkDecode(b *testing.B) {
	stream, _ := serviceStream()
	var d Decoder
	b.ReportAllocs()
	b.SetBytes(int64(len(stream)))
	for i := 0; i < b.N; i++ {
		d.Reset(stream)
		for d.More() {
			if _, err := d.Next(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkRender(b *testing.B) {
	stream, cls := serviceStream()
	d := NewDecoder(stream)
	var vals []Value
	for d.More() {
		v, err := d.Next()
		if err != nil {
			b.Fatal(err)
		}
		vals = append(vals, v)
	}
	r := &Renderer{Classes: cls, Limits: DefaultLimits, Redact: NewRedactor(DefaultSensitive)}
	slots := []Slot{{Key: "dotnet.arg.ctx"}, {Key: "dotnet.arg.query"}}
	buf := make([]attribute.KeyValue, 0, 32)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		out, _, _ := r.AppendAttrsWithin(buf[:0], slots, vals, DefaultLimits.MaxAttrBytes)
		buf = out
	}
}
