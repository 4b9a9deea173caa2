package translate

import (
	"encoding/binary"

	"github.com/clrotel/clrotel/otelbridge"
	"github.com/clrotel/clrotel/values"
)

// exception decodes an exception record's payload as the hook writes it
// (profiler/values.c clr_capture_exception): u64 class, the message as a
// value, u64 inner exception class (0: none), its message as a value.
func (t *Translator) exception(b []byte) otelbridge.Exception {
	e := otelbridge.Exception{Type: "?", MessageUnknown: true}
	if len(b) < 8 {
		return e
	}
	e.Type = t.Methods.ClassName(binary.LittleEndian.Uint64(b))
	dec := values.NewDecoder(b[8:])
	msg, err := dec.Next()
	if err != nil {
		return e
	}
	e.Message, e.MessageNull, e.MessageUnknown = messageText(msg)
	rest := b[8+dec.Offset():]
	if len(rest) >= 8 {
		if inner := binary.LittleEndian.Uint64(rest); inner != 0 {
			e.InnerType = t.Methods.ClassName(inner)
			if v, err := values.NewDecoder(rest[8:]).Next(); err == nil {
				e.InnerMessage, _, _ = messageText(v)
			}
		}
	}
	// A message holding a card number is hidden like any string value.
	if t.Render.RedactPAN {
		for _, m := range []*string{&e.Message, &e.InnerMessage} {
			if values.HasPANString(*m) {
				*m = values.TextRedacted
			}
		}
	}
	return e
}

func messageText(v values.Value) (text string, null, unknown bool) {
	switch v.Shape {
	case values.String:
		return values.StringText(v), false, false
	case values.Null:
		return "", true, false
	}
	return "", false, true
}
