package values

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	"go.opentelemetry.io/otel/attribute"
)

// Enum names the values of an enum type.
type Enum struct {
	Name   string
	Values map[uint64]string // by the value's bits, zero-extended
	Flags  bool              // [Flags]: a value may combine named values
}

// Field is what rendering knows of a field, in plan order.
type Field struct {
	Name string
	Enum *Enum
}

// ClassInfo is what rendering knows of a runtime class.
type ClassInfo struct {
	Name   string
	Fields []Field
	// Primitive is set for the boxes of primitive types (System.Int32...):
	// they render as the bare value.
	Primitive bool
	Enum      *Enum // the class is an enum
	// Elem names an array's element type.
	Elem string
	// Nullable is set for System.Nullable<T>: it renders as its value or null.
	Nullable bool
}

// Classes resolves ClassIDs met in a stream.
type Classes interface {
	Class(id uint64) (ClassInfo, bool)
}

// Slot says where one top-level value goes.
type Slot struct {
	Key  string // attribute key, e.g. dotnet.arg.item
	Enum *Enum  // a parameter of enum type
}

// Limits bound what rendering produces for one span.
type Limits struct {
	MaxAttrBytes int // keys plus values of all value attributes of a span
	MaxSubAttrs  int // typed sub-attributes per top-level value
}

// DefaultLimits are the limits when none are configured.
var DefaultLimits = Limits{MaxAttrBytes: 16 << 10, MaxSubAttrs: 16}

// Marker texts.
const (
	TextRedacted   = "***"
	TextUnreadable = "<unreadable>"
	TextCycle      = "<cycle>"
	TextMore       = "…"
)

// Renderer turns decoded values into attributes.
type Renderer struct {
	Classes Classes
	Limits  Limits
	// Redact, when set, hides the value of a key-value entry (a
	// Dictionary's entries, a KeyValuePair) whose key is a string it deems
	// sensitive: {"password": "hunter2"} renders as key="password",
	// value=***. Names of fields and arguments are redacted before capture
	// (values.c never reads them); entries are known only by their key's
	// text, so theirs are hidden here, before anything is exported.
	Redact *Redactor
	// Types renders the classes it knows by their meaning (nil: none).
	Types TypeRenderer
	// RedactPAN hides every string holding a payment card number
	// (HasPAN): it shows as *** and its key gets a ".redacted" = "pan"
	// sub-attribute.
	RedactPAN bool

	// Memo, when set, replays the attributes of values whose bytes came
	// back (AppendAttrsOf), while Classes is Versioned and its generation
	// stays the same.
	Memo *Memo

	// unsure is set when a class or a method was not known while a value
	// rendered: it may be known later, so that rendering is not kept.
	unsure bool
	// knownClasses: what was worked out of each class (known), for
	// Classes generation knownGen.
	knownClasses map[uint64]*known
	knownGen     uint64

	// scratch is the text buffer reused from one top-level value to the
	// next: a Renderer renders for one goroutine at a time.
	scratch []byte
	// lazy decodes the Encoded values the Memo did not replay; noPlan
	// collects the classes without a plan it met (NoPlanClasses).
	lazy   Decoder
	noPlan []uint64
}

// ThisKey is the slot key of `this`: inside it, collections show compactly
// from its fields on (a service's caches must not flood every span).
const ThisKey = "dotnet.this"

// textBuf is where a value's text is written. Its String copies, so that
// its storage can be reused for the next value.
type textBuf struct{ b []byte }

func (t *textBuf) add(s string)   { t.b = append(t.b, s...) }
func (t *textBuf) addByte(c byte) { t.b = append(t.b, c) }
func (t *textBuf) String() string { return string(t.b) }

// at is where a value is rendered: its nesting depth (0: the slot's value)
// and the depth from which collections show only their count.
type at struct {
	depth, compact int
}

func (a at) in() at { return at{a.depth + 1, a.compact} }

// nested reports whether a value here shows compactly.
func (a at) nested() bool { return a.depth >= a.compact }

func topAt(key string) at {
	if key == ThisKey {
		return at{0, 1}
	}
	return at{0, 2}
}

// ctx is the Context a TypeRenderer gets.
type ctx struct {
	r  *Renderer
	at at
}

func (c *ctx) Text(v Value) string {
	var sb textBuf
	c.r.text(&sb, &v, nil, c.at.in())
	return sb.String()
}

func (c *ctx) Class(id uint64) (ClassInfo, bool) { return c.r.info(id) }
func (c *ctx) Nested() bool                      { return c.at.nested() }
func (c *ctx) Depth() int                        { return c.at.depth }
func (c *ctx) Method(code uint64) (string, bool) {
	if m, ok := c.r.Classes.(Methods); ok && code != 0 {
		name, ok := m.MethodAt(code)
		if !ok {
			c.r.unsure = true
		}
		return name, ok
	}
	return "", false
}
func (c *ctx) SensitiveKey(k Value) bool {
	return c.r.Redact != nil && k.Shape == String && c.r.Redact.Sensitive(decodeUTF16(k.Str))
}

// typed renders v through r.Types when it knows v's class.
func (r *Renderer) typed(v Value, a at) (Rendering, bool) {
	if r.Types == nil {
		return Rendering{}, false
	}
	if v.Shape == Boxed && len(v.Fields) == 1 {
		v = v.Fields[0]
	}
	if v.Shape != Object && v.Shape != Struct {
		return Rendering{}, false
	}
	if k := r.known(v.Class); k != nil {
		if k.typed == 0 {
			k.typed = 1
			if c, ok := r.Types.(RenderChooser); ok {
				k.typed = answer(c.Renders(k.info))
			}
		}
		if k.typed < 0 {
			return Rendering{}, false
		}
		return r.Types.Render(k.info, v, &ctx{r: r, at: a})
	}
	ci, ok := r.info(v.Class)
	if !ok {
		return Rendering{}, false
	}
	return r.Types.Render(ci, v, &ctx{r: r, at: a})
}

// pan reports whether a String value is a card number to hide.
func (r *Renderer) pan(v Value) bool {
	return r.RedactPAN && v.Shape == String && HasPAN(v.Str)
}

// hiddenEntryValue reports the index of the field of v to hide: the value
// of a key-value entry whose string key is sensitive, else -1.
func (r *Renderer) hiddenEntryValue(ci ClassInfo, v Value) int {
	if r.Redact == nil || len(v.Fields) < 2 || len(ci.Fields) < len(v.Fields) {
		return -1
	}
	key, val := r.entryFields(ci, v.Class)
	if key < 0 || val < 0 || key >= len(v.Fields) || val >= len(v.Fields) ||
		v.Fields[key].Shape != String || !r.Redact.Sensitive(decodeUTF16(v.Fields[key].Str)) {
		return -1
	}
	return val
}

// entryFields returns the indexes of a key-value entry's key and value
// fields in class ci (id), or -1. It is a function of the class's field
// names, kept per class while the Classes' generation holds: every object
// rendered asks it, and it folds the case of each field name.
func (r *Renderer) entryFields(ci ClassInfo, id uint64) (key, val int) {
	k := r.known(id)
	if k == nil {
		return entryFieldsOf(ci)
	}
	if !k.entry {
		key, val = entryFieldsOf(ci)
		k.key, k.val, k.entry = int16(key), int16(val), true
	}
	return int(k.key), int(k.val)
}

func entryFieldsOf(ci ClassInfo) (key, val int) {
	key, val = -1, -1
	if len(ci.Fields) > 1<<14 {
		return
	}
	for i := range ci.Fields {
		n := ci.Fields[i].Name
		if !isASCII(n) {
			n = strings.ToLower(n) // as a non-ASCII letter may fold to an ASCII one
		} else if len(n) < 3 || len(n) > 7 {
			continue // none of the names below
		}
		switch {
		case oneOfFold(n, "key", "_key", "m_key"):
			key = i
		case oneOfFold(n, "value", "_value", "m_value", "val"):
			val = i
		}
	}
	return key, val
}

// oneOfFold reports whether s equals one of the ASCII names, ignoring
// case (without allocating, as strings.ToLower would for every field of
// every object).
func oneOfFold(s string, names ...string) bool {
	for _, n := range names {
		if len(s) == len(n) && strings.EqualFold(s, n) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

type attrBuilder struct {
	out     []attribute.KeyValue
	bytes   int
	limit   int
	dropped bool
}

func (b *attrBuilder) add(kv attribute.KeyValue) bool {
	n := len(kv.Key) + valueBytes(kv.Value)
	if b.limit > 0 && b.bytes+n > b.limit {
		b.dropped = true
		return false
	}
	b.bytes += n
	b.out = append(b.out, kv)
	return true
}

// addAll adds kvs, which count size bytes against the limit in all, as
// adding each in turn would: whole when they fit, else one by one.
func (b *attrBuilder) addAll(kvs []attribute.KeyValue, size int) {
	if b.limit <= 0 || b.bytes+size <= b.limit {
		b.bytes += size
		b.out = append(b.out, kvs...)
		return
	}
	for _, kv := range kvs {
		b.add(kv)
	}
}

// valueBytes is what v counts against the byte limit: a string's bytes, a
// number's or bool's text (as Emit would write it, without formatting it).
func valueBytes(v attribute.Value) int {
	switch v.Type() {
	case attribute.STRING:
		return len(v.AsString())
	case attribute.BOOL:
		if v.AsBool() {
			return 4
		}
		return 5
	case attribute.INT64:
		x := v.AsInt64()
		if x < 0 {
			// uint64(-x) is the magnitude even for the least int64, whose
			// negation wraps to itself.
			return 1 + decimalDigits(uint64(-x))
		}
		return decimalDigits(uint64(x))
	case attribute.FLOAT64:
		// As Emit writes it, without making the string.
		var buf [32]byte
		return len(strconv.AppendFloat(buf[:0], v.AsFloat64(), 'g', -1, 64))
	}
	return len(v.Emit())
}

// decimalDigits is how many digits x takes in decimal.
func decimalDigits(x uint64) int {
	n := 1
	for p := uint64(10); x >= p; p *= 10 {
		n++
		if n == 20 {
			break // p*10 would overflow: x has 20 digits
		}
	}
	return n
}

// Attrs renders values into attributes, one slot per value (values beyond
// the slots are ignored). It reports the attributes and whether the byte
// limit cut any.
func (r *Renderer) Attrs(slots []Slot, vals []Value) ([]attribute.KeyValue, bool) {
	return r.AppendAttrs(make([]attribute.KeyValue, 0, len(vals)+1), slots, vals)
}

// AppendAttrs is Attrs appending to dst (which the byte limit does not
// count), for callers that reuse a buffer.
func (r *Renderer) AppendAttrs(dst []attribute.KeyValue, slots []Slot, vals []Value) ([]attribute.KeyValue, bool) {
	out, cut, _ := r.AppendAttrsWithin(dst, slots, vals, r.Limits.MaxAttrBytes)
	return out, cut
}

// AppendAttrsWithin is AppendAttrs with what is left of a span's byte
// limit (its arguments took the rest before its return value is rendered).
// It also reports the bytes it used. With no limit set, budget is ignored.
func (r *Renderer) AppendAttrsWithin(dst []attribute.KeyValue, slots []Slot, vals []Value, budget int) ([]attribute.KeyValue, bool, int) {
	return r.AppendAttrsOf(dst, slots, vals, nil, budget)
}

// AppendAttrsOf is AppendAttrsWithin for values decoded from a stream, raw[i]
// being the bytes vals[i] was decoded from: with a Memo, a value whose bytes
// were rendered before is replayed rather than rendered.
//
// A value may be left Encoded (Defers said so of its bytes, raw[i]): it
// is decoded only if the Memo does not replay it, and the classes without
// a plan met in it are then reported by NoPlanClasses.
func (r *Renderer) AppendAttrsOf(dst []attribute.KeyValue, slots []Slot, vals []Value, raw [][]byte, budget int) ([]attribute.KeyValue, bool, int) {
	r.noPlan = r.noPlan[:0]
	var m *Memo
	if len(raw) >= len(vals) {
		m = r.memo()
	}
	b := attrBuilder{out: dst}
	if r.Limits.MaxAttrBytes > 0 {
		b.limit = max(budget, 1)
	}
	for i, val := range vals {
		if i >= len(slots) {
			break
		}
		if m == nil || len(raw[i]) < memoMinBytes {
			if i < len(raw) {
				val = r.decoded(val, raw[i])
			}
			r.top(&b, slots[i], val)
			continue
		}
		r.topMemo(&b, m, slots[i], val, raw[i])
	}
	return b.out, b.dropped, b.bytes
}

// Defers reports whether a top-level value of these bytes may be passed
// to AppendAttrsOf Encoded, undecoded: the Memo may replay it. A value the
// memo keeps is one a service passes again and again (its repositories,
// its request context), and decoding it costs more than hashing it.
func (r *Renderer) Defers(raw []byte) bool {
	return len(raw) >= memoMinBytes && r.memo() != nil
}

// NoPlanClasses returns the classes of the NoPlan values met while
// AppendAttrsOf decoded Encoded values, since it last began; the slice is
// reused by the next call.
func (r *Renderer) NoPlanClasses() []uint64 { return r.noPlan }

// decoded is v, or, when v was left Encoded, the value raw holds. The
// storage of the value returned is reused by the next call.
func (r *Renderer) decoded(v Value, raw []byte) Value {
	if v.Shape != Encoded {
		return v
	}
	r.lazy.Reset(raw)
	d, err := r.lazy.Next()
	if err != nil {
		// Only a sized value's inside is not read by the Skip that found
		// its end: a corrupt one, which the hooks do not write.
		return Value{Shape: Unreadable}
	}
	r.noPlan = append(r.noPlan, r.lazy.NoPlanClasses()...)
	return d
}

// memo returns the Memo in force, emptied if the classes changed since it
// was last used, or nil: none, or Classes not Versioned.
func (r *Renderer) memo() *Memo {
	m := r.Memo
	if m == nil {
		return nil
	}
	v, ok := r.Classes.(Versioned)
	if !ok {
		return nil
	}
	if g := v.Generation(); g != m.gen {
		m.reset()
		m.gen = g
	}
	return m
}

// topMemo is top through m: the value's attributes replayed if its bytes
// were kept, kept if they are seen for the second time.
func (r *Renderer) topMemo(b *attrBuilder, m *Memo, s Slot, v Value, raw []byte) {
	h := m.hash(s, raw)
	hit, keep := m.lookup(h, s, raw)
	var attrs []attribute.KeyValue
	var size int
	switch {
	case hit != nil:
		// As decoding the value would have reported them.
		r.noPlan = append(r.noPlan, hit.noPlan...)
		attrs, size = hit.attrs, hit.size
	case keep:
		v = r.decoded(v, raw)
		var sure bool
		if attrs, size, sure = r.unlimited(nil, s, v); sure {
			m.keep(h, s, raw, attrs, size, noPlanOf(nil, v))
		}
	default:
		v = r.decoded(v, raw)
		e := m.recentSlot(raw)
		if e == nil {
			r.top(b, s, v)
			return
		}
		// Into the entry's reused array: replays copy from it.
		var sure bool
		if attrs, size, sure = r.unlimited(e.attrs[:0], s, v); sure {
			e.remember(h, s, raw, attrs, size, noPlanOf(e.noPlan[:0], v))
		}
	}
	b.addAll(attrs, size)
}

// noPlanOf appends the classes of the NoPlan values in v to dst: a value
// replayed from the memo reports them as decoding it would, so that they
// are asked for until they have a plan (a full request queue drops a
// request).
func noPlanOf(dst []uint64, v Value) []uint64 {
	Walk(v, func(w Value) {
		if w.Shape == NoPlan {
			dst = append(dst, w.Class)
		}
	})
	return dst
}

// unlimited renders s's value v without a byte limit, appended to dst, so
// that the whole rendering can be kept (the span's limit applies as it is
// replayed), with what it counts against a limit, and reports whether it
// may be kept: no class or method it met was unknown.
func (r *Renderer) unlimited(dst []attribute.KeyValue, s Slot, v Value) (attrs []attribute.KeyValue, size int, sure bool) {
	rec := attrBuilder{out: dst}
	r.unsure = false
	r.top(&rec, s, v)
	return rec.out, rec.bytes, !r.unsure
}

// nullValue is what an empty System.Nullable<T> renders as (never written).
var nullValue = Value{Shape: Null}

// nullable turns a System.Nullable<T> struct into null or its value. It
// takes and returns pointers: a Value is large, and rendering visits each.
func (r *Renderer) nullable(v *Value) *Value {
	if v.Shape != Struct {
		return v
	}
	ci, ok := r.info(v.Class)
	if !ok || !ci.Nullable || len(v.Fields) != 2 || len(ci.Fields) != 2 {
		return v
	}
	has, val := 0, 1
	if ci.Fields[0].Name == "value" {
		has, val = 1, 0
	}
	if v.Fields[has].Shape == Prim && v.Fields[has].Bits == 0 {
		return &nullValue
	}
	return &v.Fields[val]
}

// unwrapScalar turns a primitive or enum read as a struct (a type parameter
// of shared generic code whose argument is Int32 or an enum) into its
// value, with the enum's names.
func (r *Renderer) unwrapScalar(v Value, enum *Enum) (Value, *Enum) {
	if v.Shape != Struct || len(v.Fields) != 1 || v.Fields[0].Shape != Prim {
		return v, enum
	}
	ci, ok := r.info(v.Class)
	switch {
	case ok && ci.Primitive:
		return v.Fields[0], enum
	case ok && ci.Enum != nil:
		return v.Fields[0], ci.Enum
	}
	return v, enum
}

func (r *Renderer) top(b *attrBuilder, s Slot, v Value) {
	key := attribute.Key(s.Key)
	v = *r.nullable(&v)
	v, s.Enum = r.unwrapScalar(v, s.Enum)
	switch v.Shape {
	case Skipped:
		return
	case Prim:
		if s.Enum != nil {
			b.add(key.String(enumText(s.Enum, v)))
			b.add(attribute.Key(s.Key + ".value").Int64(v.Int()))
			return
		}
		b.add(primAttr(key, v))
		return
	case String:
		if r.pan(v) {
			b.add(key.String(TextRedacted))
			b.add(attribute.Key(s.Key + ".redacted").String("pan"))
			return
		}
		b.add(key.String(decodeUTF16(v.Str)))
		if int(v.StrLen) > len(v.Str) {
			b.add(attribute.Key(s.Key + ".length").Int64(int64(v.StrLen)))
		}
		return
	case Null:
		b.add(key.String("null"))
		b.add(attribute.Key(s.Key + ".null").Bool(true))
		return
	case Boxed:
		if ci, ok := r.info(v.Class); ok && ci.Primitive && len(v.Fields) == 1 && len(v.Fields[0].Fields) == 1 && v.Fields[0].Fields[0].Shape == Prim {
			b.add(primAttr(key, v.Fields[0].Fields[0]))
			b.add(attribute.Key(s.Key + ".type").String(ci.Name))
			return
		}
	case Array:
		b.add(attribute.Key(s.Key + ".length").Int64(int64(product(v.Dims))))
	}
	if tr, ok := r.typed(v, topAt(s.Key)); ok {
		if tr.As != nil {
			r.top(b, s, *tr.As)
		} else {
			b.add(key.String(tr.Text))
		}
		for _, sub := range tr.Subs {
			b.add(attribute.KeyValue{Key: attribute.Key(s.Key + sub.Suffix), Value: sub.Value})
		}
		return
	}
	// The text is built in the renderer's buffer and copied out once; a
	// value rendered while it is in use (none today) gets a buffer of its
	// own.
	sb := textBuf{b: r.scratch[:0]}
	r.scratch = nil
	r.plainText(&sb, &v, nil, topAt(s.Key))
	b.add(key.String(sb.String()))
	r.scratch = sb.b[:0]
	r.subAttrs(b, s.Key, v, topAt(s.Key))
}

// subAttrs adds the typed first-level fields of an object or struct, so
// TraceQL can match on them: dotnet.arg.item.Price = 1.5.
func (r *Renderer) subAttrs(b *attrBuilder, prefix string, v Value, a at) {
	if v.Shape == Boxed && len(v.Fields) == 1 {
		v = v.Fields[0]
	}
	if v.Shape != Object && v.Shape != Struct {
		return
	}
	ci, _ := r.info(v.Class)
	hide := r.hiddenEntryValue(ci, v)
	n := 0
	for i, f := range v.Fields {
		if n >= r.Limits.MaxSubAttrs {
			return
		}
		name := fieldName(ci, i)
		key := attribute.Key(prefix + "." + name)
		if i == hide {
			b.add(key.String(TextRedacted))
			n++
			continue
		}
		switch f.Shape {
		case Prim:
			if i < len(ci.Fields) && ci.Fields[i].Enum != nil {
				b.add(key.String(enumText(ci.Fields[i].Enum, f)))
			} else {
				b.add(primAttr(key, f))
			}
			n++
		case String:
			if r.pan(f) {
				b.add(key.String(TextRedacted))
				b.add(attribute.Key(prefix + "." + name + ".redacted").String("pan"))
			} else {
				b.add(key.String(decodeUTF16(f.Str)))
			}
			n++
		case Object, Struct, Boxed:
			// Scalars by meaning (a decimal, a date, a Guid) are worth
			// querying; a collection's text repeats the parent's.
			if r.collection(f) {
				continue
			}
			if tr, ok := r.typed(f, a.in()); ok && !isCollection(tr) {
				if tr.As != nil {
					var sb textBuf
					r.text(&sb, tr.As, nil, a.in())
					tr.Text = sb.String()
				}
				b.add(key.String(tr.Text))
				n++
			}
		}
	}
}

func (r *Renderer) info(id uint64) (ClassInfo, bool) {
	if r.Classes == nil {
		return ClassInfo{}, false
	}
	if k := r.known(id); k != nil {
		return k.info, true
	}
	ci, ok := r.Classes.Class(id)
	if !ok {
		r.unsure = true
	}
	return ci, ok
}

func fieldName(ci ClassInfo, i int) string {
	if i < len(ci.Fields) && ci.Fields[i].Name != "" {
		return ci.Fields[i].Name
	}
	return "field" + strconv.Itoa(i)
}

func className(ci ClassInfo, ok bool) string {
	if ok && ci.Name != "" {
		return ci.Name
	}
	return "?"
}

// text writes the compact rendering: Acme.Shop.Item{Name="pen", Price=1.5},
// Int32[3]{1, 2, 3}, "text", null.
func (r *Renderer) text(sb *textBuf, v *Value, enum *Enum, a at) {
	v = r.nullable(v)
	switch v.Shape {
	case Object, Struct, Boxed:
		if tr, ok := r.typed(*v, a); ok {
			if tr.As != nil {
				r.text(sb, tr.As, nil, a)
			} else {
				sb.add(tr.Text)
			}
			return
		}
	}
	r.plainText(sb, v, enum, a)
}

// plainText is text without asking r.Types (already asked for v).
func (r *Renderer) plainText(sb *textBuf, v *Value, enum *Enum, a at) {
	switch v.Shape {
	case Null:
		sb.add("null")
	case Prim:
		if enum != nil {
			sb.add(enumText(enum, *v))
			return
		}
		sb.add(primText(*v))
	case String:
		if r.pan(*v) {
			sb.add(TextRedacted)
			return
		}
		writeQuoted(sb, v.Str)
		if int(v.StrLen) > len(v.Str) {
			sb.add(TextMore + "(" + strconv.Itoa(int(v.StrLen)) + ")")
		}
	case Object, Struct:
		ci, ok := r.info(v.Class)
		sb.add(className(ci, ok))
		if v.Shape == Object && a.depth > 0 && ok && ci.Terse() {
			sb.add("{" + TextMore + "}")
			return
		}
		sb.addByte('{')
		hide := r.hiddenEntryValue(ci, *v)
		for i := range v.Fields {
			f := &v.Fields[i]
			if i > 0 {
				sb.add(", ")
			}
			if f.Shape == Truncated {
				sb.add(TextMore)
				break
			}
			sb.add(fieldName(ci, i))
			sb.addByte('=')
			if i == hide {
				sb.add(TextRedacted)
				continue
			}
			var fe *Enum
			if i < len(ci.Fields) {
				fe = ci.Fields[i].Enum
			}
			r.text(sb, f, fe, a.in())
		}
		if ok && len(v.Fields) < len(ci.Fields) && (len(v.Fields) == 0 || v.Fields[len(v.Fields)-1].Shape != Truncated) {
			if len(v.Fields) > 0 {
				sb.add(", ")
			}
			sb.add(TextMore)
		}
		sb.addByte('}')
	case Boxed:
		ci, ok := r.info(v.Class)
		if ok && ci.Primitive && len(v.Fields) == 1 && len(v.Fields[0].Fields) == 1 {
			r.text(sb, &v.Fields[0].Fields[0], nil, a)
			return
		}
		if ok && ci.Enum != nil && len(v.Fields) == 1 && len(v.Fields[0].Fields) == 1 {
			r.text(sb, &v.Fields[0].Fields[0], ci.Enum, a)
			return
		}
		if len(v.Fields) == 1 {
			r.text(sb, &v.Fields[0], nil, a)
		}
	case Array:
		ci, ok := r.info(v.Class)
		elem := "?"
		if ok && ci.Elem != "" {
			elem = ci.Elem
		}
		if a.nested() && a.depth > 0 {
			sb.add("[" + strconv.FormatUint(product(v.Dims), 10) + "]")
			return
		}
		sb.add(elem)
		sb.addByte('[')
		for i, d := range v.Dims {
			if i > 0 {
				sb.addByte(',')
			}
			sb.add(strconv.FormatUint(uint64(d), 10))
		}
		sb.add("]{")
		for i := range v.Elems {
			e := &v.Elems[i]
			if i > 0 {
				sb.add(", ")
			}
			if e.Shape == Truncated {
				sb.add(TextMore)
				break
			}
			r.text(sb, e, nil, a.in())
		}
		if uint64(len(v.Elems)) < product(v.Dims) && (len(v.Elems) == 0 || v.Elems[len(v.Elems)-1].Shape != Truncated) {
			if len(v.Elems) > 0 {
				sb.add(", ")
			}
			sb.add(TextMore)
		}
		sb.addByte('}')
	case NoPlan, DepthLimit:
		ci, ok := r.info(v.Class)
		sb.add(className(ci, ok))
		sb.add("{" + TextMore + "}")
	case Cycle:
		sb.add(TextCycle)
	case Unreadable:
		sb.add(TextUnreadable)
	case Truncated:
		sb.add(TextMore)
	case Pointer:
		sb.add("0x" + strconv.FormatUint(v.Addr, 16))
	case Skipped:
		sb.add("<not captured>")
	case Redacted:
		sb.add(TextRedacted)
	}
}

func product(dims []uint32) uint64 {
	p := uint64(1)
	for _, d := range dims {
		p *= uint64(d)
	}
	return p
}

func enumText(e *Enum, v Value) string {
	if name, ok := e.Values[v.Bits]; ok {
		return name
	}
	if e.Flags {
		if text, ok := flagsText(e, v.Bits); ok {
			return text
		}
	}
	return strconv.FormatInt(v.Int(), 10)
}

// flagsText names a [Flags] enum value as .NET does: the named values it
// is made of, largest first taken, listed from the smallest ("Read,
// Write"); false when some bits have no name.
func flagsText(e *Enum, bits uint64) (string, bool) {
	if bits == 0 {
		return "", false
	}
	vals := make([]uint64, 0, len(e.Values))
	for v := range e.Values {
		if v != 0 {
			vals = append(vals, v)
		}
	}
	sort.Slice(vals, func(i, j int) bool { return vals[i] > vals[j] })
	rest := bits
	var used []uint64
	for _, v := range vals {
		if rest&v == v {
			used = append(used, v)
			rest &^= v
		}
	}
	if rest != 0 {
		return "", false
	}
	names := make([]string, len(used))
	for i, v := range used {
		names[len(used)-1-i] = e.Values[v]
	}
	return strings.Join(names, ", "), true
}

// primAttr is a primitive as a typed attribute: int64 for integers (UInt64
// above the int64 range as a decimal string), float64, bool, Char as a
// one-character string.
func primAttr(key attribute.Key, v Value) attribute.KeyValue {
	switch v.Kind {
	case KindBool:
		return key.Bool(v.Bits != 0)
	case KindChar:
		return key.String(decodeUTF16([]uint16{uint16(v.Bits)}))
	case KindR4, KindR8:
		return key.Float64(v.Float())
	case KindU8, KindU:
		if v.Bits > math.MaxInt64 {
			return key.String(strconv.FormatUint(v.Bits, 10))
		}
		return key.Int64(int64(v.Bits))
	}
	return key.Int64(v.Int())
}

func primText(v Value) string {
	switch v.Kind {
	case KindBool:
		return strconv.FormatBool(v.Bits != 0)
	case KindChar:
		return strconv.QuoteRune(rune(v.Bits))
	case KindR4:
		return strconv.FormatFloat(v.Float(), 'g', -1, 32)
	case KindR8:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case KindU1, KindU2, KindU4, KindU8, KindU:
		return strconv.FormatUint(v.Bits, 10)
	}
	return strconv.FormatInt(v.Int(), 10)
}

// StringText is a String value's text.
func StringText(v Value) string { return decodeUTF16(v.Str) }

// decodeUTF16 turns UTF-16 into valid UTF-8: pairs become one code point,
// unpaired surrogates (including one cut off by truncation) become U+FFFD.
// ASCII text (most of what a service passes) is copied in one allocation.
func decodeUTF16(s []uint16) string {
	var out strings.Builder
	out.Grow(len(s))
	for _, c := range s {
		if c >= 0x80 {
			return string(utf16.Decode(s))
		}
		out.WriteByte(byte(c))
	}
	return out.String()
}

// writeQuoted writes s as strconv.Quote writes its UTF-8 text: a run of
// printable ASCII is copied as it is, anything else goes through Quote.
func writeQuoted(sb *textBuf, s []uint16) {
	for _, c := range s {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			sb.add(strconv.Quote(decodeUTF16(s)))
			return
		}
	}
	sb.addByte('"')
	for _, c := range s {
		sb.addByte(byte(c))
	}
	sb.addByte('"')
}

// Terse reports whether an object of the class, with no rendering of its
// own (TypeRenderer; an exception has one), shows its fields only as a
// slot's value itself and as its type name wherever nested in one: a
// framework class (System.*, Microsoft.*). A request context's listener, a
// lock or a logger is no part of the app's state worth a span's bytes. The
// planner relies on it too: the hooks do not read such objects' fields.
func (ci ClassInfo) Terse() bool {
	return ci.Name == "Object" || strings.HasPrefix(ci.Name, "System.") || strings.HasPrefix(ci.Name, "Microsoft.")
}

// collection reports whether r.typed(v) would be a collection's rendering
// or none, as r.Types can tell from v's class alone.
func (r *Renderer) collection(v Value) bool {
	cr, ok := r.Types.(CollectionRenderer)
	if !ok {
		return false
	}
	if v.Shape == Boxed && len(v.Fields) == 1 {
		v = v.Fields[0]
	}
	if v.Shape != Object && v.Shape != Struct {
		return false
	}
	if k := r.known(v.Class); k != nil {
		if k.collection == 0 {
			k.collection = answer(cr.Collection(k.info))
		}
		return k.collection > 0
	}
	ci, ok := r.info(v.Class)
	return ok && cr.Collection(ci)
}

// isCollection reports whether a TypeRenderer rendered a collection (it
// gives a count).

func isCollection(tr Rendering) bool {
	for _, s := range tr.Subs {
		if s.Suffix == ".count" {
			return true
		}
	}
	return false
}
