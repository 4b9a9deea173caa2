package values

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Kind is how a primitive was read (profiler/values.h VK_*).
type Kind uint8

const (
	KindSkip   Kind = 0
	KindBool   Kind = 1
	KindChar   Kind = 2
	KindI1     Kind = 3
	KindU1     Kind = 4
	KindI2     Kind = 5
	KindU2     Kind = 6
	KindI4     Kind = 7
	KindU4     Kind = 8
	KindI8     Kind = 9
	KindU8     Kind = 10
	KindR4     Kind = 11
	KindR8     Kind = 12
	KindI      Kind = 13
	KindU      Kind = 14
	KindRef    Kind = 20
	KindStruct Kind = 21
	KindPtr    Kind = 22
	KindByRef  Kind = 23
	// KindTypeArg is a type parameter of shared generic code, read per call
	// as its exact type argument (written as whatever that type is).
	KindTypeArg Kind = 24
)

// Size is the byte size of a primitive kind, 0 for others.
func (k Kind) Size() int {
	switch k {
	case KindBool, KindI1, KindU1:
		return 1
	case KindChar, KindI2, KindU2:
		return 2
	case KindI4, KindU4, KindR4:
		return 4
	case KindI8, KindU8, KindR8, KindI, KindU:
		return 8
	}
	return 0
}

// Stream tags (profiler/values.h VT_*).
const (
	tagNull       = 1
	tagPrim       = 2
	tagString     = 3
	tagObject     = 4
	tagStruct     = 5
	tagArray      = 6
	tagNoPlan     = 7
	tagCycle      = 8
	tagDepth      = 9
	tagUnreadable = 10
	tagTrunc      = 11
	tagPtr        = 12
	tagSkip       = 13
	tagRedacted   = 14
	tagBoxed      = 15
	tagSized      = 16
)

// Shape says what a decoded Value is.
type Shape int

const (
	Null Shape = iota
	Prim
	String
	Object
	Struct
	Array
	Boxed
	NoPlan     // a class whose layout was not known yet
	Cycle      // an object already shown
	DepthLimit // deeper than the depth limit
	Unreadable
	Truncated // the byte budget ended here
	Pointer
	Skipped
	Redacted
	// Encoded is a top-level value left undecoded (Decoder.Skip): the
	// Renderer decodes it from its bytes only when its Memo does not
	// replay them (AppendAttrsOf).
	Encoded
)

// Value is one decoded value.
type Value struct {
	Shape  Shape
	Kind   Kind   // Prim
	Bits   uint64 // Prim: raw little-endian bits, zero-extended
	Str    []uint16
	StrLen uint32  // String: the original length in UTF-16 units
	Class  uint64  // Object, Struct, Array, Boxed, NoPlan, DepthLimit
	Fields []Value // Object, Struct; Boxed: one Struct
	Dims   []uint32
	Elems  []Value
	Index  int    // Cycle: the object's index in write order
	Addr   uint64 // Pointer
}

// Decoder reads one record's value stream.
type Decoder struct {
	b   []byte
	off int
	// Storage the decoded values' Fields, Elems and Str point into, kept
	// across Reset: a record's values cost no allocation once a few records
	// have been decoded (the drainer decodes every recorded call's values).
	vals  [][]Value
	vc    int // chunk in use
	vi    int // next free Value in it
	units []uint16
	ui    int
	dims  []uint32
	di    int
	// noPlan: the classes of the NoPlan values decoded since Reset.
	noPlan []uint64
	// cut: a VT_TRUNC was read since Reset.
	cut bool
}

// NewDecoder returns a decoder over b.
func NewDecoder(b []byte) *Decoder { return &Decoder{b: b} }

// Reset makes d decode b, reusing the storage of the values it decoded
// before: those must no longer be in use.
func (d *Decoder) Reset(b []byte) {
	d.b, d.off = b, 0
	d.vc, d.vi, d.ui, d.di = 0, 0, 0, 0
	d.noPlan = d.noPlan[:0]
	d.cut = false
}

// Cut reports whether the values read (by Next or Skip) since the decoder
// was made or Reset met the hooks' cut (VT_TRUNC): the byte budget ended
// inside them.
func (d *Decoder) Cut() bool { return d.cut }

// valueChunk is how many Values a storage chunk holds; unitChunk how many
// UTF-16 units.
const (
	valueChunk = 256
	unitChunk  = 4096
)

// children returns an empty slice with room for exactly n values, from the
// reused storage when n fits a chunk.
func (d *Decoder) children(n int) []Value {
	if n == 0 {
		return nil
	}
	if n > valueChunk {
		return make([]Value, 0, n)
	}
	if d.vc < len(d.vals) && d.vi+n > valueChunk {
		d.vc, d.vi = d.vc+1, 0
	}
	if d.vc == len(d.vals) {
		d.vals = append(d.vals, make([]Value, valueChunk))
		d.vi = 0
	}
	s := d.vals[d.vc][d.vi : d.vi : d.vi+n]
	d.vi += n
	return s
}

// str returns n UTF-16 units of storage, reused when n fits a chunk.
func (d *Decoder) str(n int) []uint16 {
	if n > unitChunk/4 {
		return make([]uint16, n)
	}
	if d.ui+n > len(d.units) {
		// A full chunk stays with the strings that use it.
		d.units = make([]uint16, unitChunk)
		d.ui = 0
	}
	s := d.units[d.ui : d.ui+n : d.ui+n]
	d.ui += n
	return s
}

// NoPlanClasses returns the classes of the NoPlan values decoded since the
// decoder was made or Reset (what Walk would find in them), in order; the
// slice is reused by the next Reset.
func (d *Decoder) NoPlanClasses() []uint64 { return d.noPlan }

// Offset is how many bytes have been decoded.
func (d *Decoder) Offset() int { return d.off }

// Seek makes the next value decoded the one at off, an Offset of this
// stream; the values decoded so far stay valid.
func (d *Decoder) Seek(off int) { d.off = off }

// More reports whether values remain.
func (d *Decoder) More() bool { return d.off < len(d.b) }

// maxDecodeDepth bounds recursion on a corrupt stream.
const maxDecodeDepth = 64

// Next decodes the next value. At the end of the stream, or after a
// Truncated value, it returns a Truncated value.
func (d *Decoder) Next() (Value, error) {
	return d.value(0)
}

// Skip moves past the next value without decoding it: Offset then says
// where its bytes end. It reads the stream as Next does, except that it
// steps over a sized value (VT_SIZED, the hooks' wrapping of a large
// top-level value) by its size without reading it: where Next succeeds,
// Skip ends at the same byte, and where Skip fails, Next does (FuzzDecode).
func (d *Decoder) Skip() error { return d.skip(0) }

func (d *Decoder) skip(depth int) error {
	if depth > maxDecodeDepth {
		return d.errorf("values nested deeper than %d", maxDecodeDepth)
	}
	if d.off >= len(d.b) {
		return nil
	}
	t := d.b[d.off]
	d.off++
	switch t {
	case tagNull, tagUnreadable, tagSkip, tagRedacted:
		return nil
	case tagPrim:
		_, n, err := d.primHead()
		if err != nil {
			return err
		}
		d.off += n
		return nil
	case tagString:
		_, n, err := d.stringHead()
		if err != nil {
			return err
		}
		d.off += int(n) * 2
		return nil
	case tagObject, tagStruct:
		_, n, err := d.objectHead()
		if err != nil {
			return err
		}
		return d.skipChildren(n, depth)
	case tagArray:
		_, rank, err := d.arrayHead()
		if err != nil {
			return err
		}
		if err := d.advance(4 * rank); err != nil {
			return err
		}
		n, err := d.u32()
		if err != nil {
			return err
		}
		return d.skipChildren(int(n), depth)
	case tagBoxed:
		if err := d.advance(8); err != nil {
			return err
		}
		return d.skip(depth + 1)
	case tagNoPlan, tagDepth, tagPtr:
		return d.advance(8)
	case tagCycle:
		return d.advance(1)
	case tagTrunc:
		d.off, d.cut = len(d.b), true
		return nil
	case tagSized:
		if depth > 0 {
			d.off--
			return d.errorf("sized value inside another")
		}
		n, err := d.u32()
		if err != nil {
			return err
		}
		return d.advance(int(n))
	}
	d.off--
	return d.errorf("unknown tag %d", t)
}

// skipChildren skips n fields or elements, stopping after a Truncated one
// as object and array do.
func (d *Decoder) skipChildren(n, depth int) error {
	for i := 0; i < n; i++ {
		if d.off >= len(d.b) || d.b[d.off] == tagTrunc {
			// Truncated: Next's child would be one, and ends the value.
			return d.skip(depth + 1)
		}
		if err := d.skip(depth + 1); err != nil {
			return err
		}
	}
	return nil
}

func (d *Decoder) advance(n int) error {
	if err := d.need(n); err != nil {
		return err
	}
	d.off += n
	return nil
}

func (d *Decoder) errorf(format string, args ...any) error {
	return fmt.Errorf("values: byte %d: "+format, append([]any{d.off}, args...)...)
}

// need is small enough to be inlined in every read: the error is built
// out of line.
func (d *Decoder) need(n int) error {
	if n >= 0 && n <= len(d.b)-d.off {
		return nil
	}
	return d.truncated(n)
}

//go:noinline
func (d *Decoder) truncated(n int) error {
	return d.errorf("truncated stream (need %d bytes, have %d)", n, len(d.b)-d.off)
}

func (d *Decoder) u8() (uint8, error) {
	if err := d.need(1); err != nil {
		return 0, err
	}
	d.off++
	return d.b[d.off-1], nil
}

func (d *Decoder) u16() (uint16, error) {
	if err := d.need(2); err != nil {
		return 0, err
	}
	d.off += 2
	return binary.LittleEndian.Uint16(d.b[d.off-2:]), nil
}

func (d *Decoder) u32() (uint32, error) {
	if err := d.need(4); err != nil {
		return 0, err
	}
	d.off += 4
	return binary.LittleEndian.Uint32(d.b[d.off-4:]), nil
}

func (d *Decoder) u64() (uint64, error) {
	if err := d.need(8); err != nil {
		return 0, err
	}
	d.off += 8
	return binary.LittleEndian.Uint64(d.b[d.off-8:]), nil
}

func (d *Decoder) value(depth int) (Value, error) {
	var v Value
	err := d.into(&v, depth)
	return v, err
}

// into decodes the next value into *out, where it is to stay: a Value is
// large, and an object's fields are decoded straight into their storage.
// On error *out is the zero Value.
func (d *Decoder) into(out *Value, depth int) error {
	*out = Value{}
	if depth > maxDecodeDepth {
		return d.errorf("values nested deeper than %d", maxDecodeDepth)
	}
	if d.off >= len(d.b) {
		out.Shape = Truncated
		return nil
	}
	t, _ := d.u8()
	var err error
	switch t {
	case tagNull:
		out.Shape = Null
	case tagPrim:
		err = d.prim(out)
	case tagString:
		err = d.string(out)
	case tagObject, tagStruct:
		err = d.object(out, t, depth)
	case tagArray:
		err = d.array(out, depth)
	case tagBoxed:
		var cls uint64
		if cls, err = d.u64(); err != nil {
			break
		}
		fields := d.children(1)[:1]
		if err = d.into(&fields[0], depth+1); err != nil {
			break
		}
		*out = Value{Shape: Boxed, Class: cls, Fields: fields}
	case tagNoPlan, tagDepth:
		var cls uint64
		if cls, err = d.u64(); err != nil {
			break
		}
		out.Class = cls
		out.Shape = DepthLimit
		if t == tagNoPlan {
			d.noPlan = append(d.noPlan, cls)
			out.Shape = NoPlan
		}
	case tagCycle:
		var i uint8
		i, err = d.u8()
		*out = Value{Shape: Cycle, Index: int(i)}
		return err
	case tagUnreadable:
		out.Shape = Unreadable
	case tagTrunc:
		d.off, d.cut = len(d.b), true
		out.Shape = Truncated
	case tagPtr:
		var a uint64
		a, err = d.u64()
		*out = Value{Shape: Pointer, Addr: a}
		return err
	case tagSkip:
		out.Shape = Skipped
	case tagRedacted:
		out.Shape = Redacted
	case tagSized:
		return d.sized(out, depth)
	default:
		d.off--
		return d.errorf("unknown tag %d", t)
	}
	if err != nil {
		*out = Value{}
	}
	return err
}

// sized decodes the value a VT_SIZED header wraps, within its n bytes: it
// is that value, and a cut inside it ends it there. Only a top-level value
// is sized (so that a cut inside one ends no enclosing value Skip would
// not read).
func (d *Decoder) sized(out *Value, depth int) error {
	if depth > 0 {
		d.off--
		return d.errorf("sized value inside another")
	}
	n, err := d.u32()
	if err == nil {
		err = d.need(int(n))
	}
	if err != nil {
		return err
	}
	end, whole := d.off+int(n), d.b
	d.b = d.b[:end]
	err = d.into(out, depth+1)
	d.b = whole
	if err == nil && d.off != end {
		err = d.errorf("sized value of %d bytes ended %d bytes short", n, end-d.off)
	}
	if err != nil {
		*out = Value{}
	}
	return err
}

// primHead reads a primitive's kind; the n bytes of its value follow.
func (d *Decoder) primHead() (k Kind, n int, err error) {
	b, err := d.u8()
	if err != nil {
		return 0, 0, err
	}
	if n = Kind(b).Size(); n == 0 {
		return 0, 0, d.errorf("primitive of kind %d", b)
	}
	return Kind(b), n, d.need(n)
}

// stringHead reads a string's length and how many of its UTF-16 units
// were copied: those follow.
func (d *Decoder) stringHead() (l, n uint32, err error) {
	if l, err = d.u32(); err != nil {
		return 0, 0, err
	}
	if n, err = d.u32(); err != nil {
		return 0, 0, err
	}
	if n > l || d.need(int(n)*2) != nil {
		return 0, 0, d.errorf("string of %d copied units (length %d) in %d bytes", n, l, len(d.b)-d.off)
	}
	return l, n, nil
}

// objectHead reads an object's or a struct's class and how many fields
// follow.
func (d *Decoder) objectHead() (cls uint64, n int, err error) {
	if cls, err = d.u64(); err != nil {
		return 0, 0, err
	}
	fields, err := d.u16()
	return cls, int(fields), err
}

// arrayHead reads an array's class and rank: its rank dimensions follow,
// then the count of the elements copied, then those.
func (d *Decoder) arrayHead() (cls uint64, rank int, err error) {
	if cls, err = d.u64(); err != nil {
		return 0, 0, err
	}
	r, err := d.u8()
	return cls, int(r), err
}

func (d *Decoder) prim(out *Value) error {
	k, n, err := d.primHead()
	if err != nil {
		return err
	}
	var bits uint64
	for i := n - 1; i >= 0; i-- {
		bits = bits<<8 | uint64(d.b[d.off+i])
	}
	d.off += n
	out.Shape, out.Kind, out.Bits = Prim, k, bits
	return nil
}

func (d *Decoder) string(out *Value) error {
	l, n, err := d.stringHead()
	if err != nil {
		return err
	}
	s := d.str(int(n))
	for i := range s {
		s[i] = binary.LittleEndian.Uint16(d.b[d.off+2*i:])
	}
	d.off += int(n) * 2
	out.Shape, out.Str, out.StrLen = String, s, l
	return nil
}

func (d *Decoder) object(out *Value, t uint8, depth int) error {
	cls, n, err := d.objectHead()
	if err != nil {
		return err
	}
	out.Shape, out.Class = Object, cls
	if t == tagStruct {
		out.Shape = Struct
	}
	// The byte budget may cut the object after any field (VT_TRUNC, or
	// the stream's end: a Truncated field ends it), so n is no promise of
	// bytes; each field takes at least one.
	fields := d.children(min(n, len(d.b)-d.off+1))
	for i := 0; i < n; i++ {
		fields = fields[:i+1]
		if err := d.into(&fields[i], depth+1); err != nil {
			return err
		}
		if fields[i].Shape == Truncated {
			break
		}
	}
	out.Fields = fields
	return nil
}

func (d *Decoder) array(out *Value, depth int) error {
	cls, rank, err := d.arrayHead()
	if err != nil {
		return err
	}
	out.Shape, out.Class = Array, cls
	if rank > 0 && d.di+rank > len(d.dims) {
		d.dims = make([]uint32, max(256, rank)) // the full one stays with its arrays
		d.di = 0
	}
	if rank > 0 {
		out.Dims = d.dims[d.di : d.di : d.di+rank]
		d.di += rank
	}
	for i := 0; i < rank; i++ {
		dim, err := d.u32()
		if err != nil {
			return err
		}
		out.Dims = append(out.Dims, dim)
	}
	n, err := d.u32()
	if err != nil {
		return err
	}
	elems := d.children(int(min(int64(n), int64(len(d.b)-d.off)+1)))
	for i := 0; i < int(n); i++ {
		elems = elems[:i+1]
		if err := d.into(&elems[i], depth+1); err != nil {
			return err
		}
		if elems[i].Shape == Truncated {
			break
		}
	}
	out.Elems = elems
	return nil
}

// Int returns a primitive's value as a signed integer (sign-extended by kind).
func (v Value) Int() int64 {
	switch v.Kind {
	case KindI1:
		return int64(int8(v.Bits))
	case KindI2:
		return int64(int16(v.Bits))
	case KindI4:
		return int64(int32(v.Bits))
	}
	return int64(v.Bits)
}

// Float returns an R4 or R8 primitive's value.
func (v Value) Float() float64 {
	if v.Kind == KindR4 {
		return float64(math.Float32frombits(uint32(v.Bits)))
	}
	return math.Float64frombits(v.Bits)
}

// Walk calls fn for v and every value inside it.
func Walk(v Value, fn func(Value)) {
	fn(v)
	for _, f := range v.Fields {
		Walk(f, fn)
	}
	for _, e := range v.Elems {
		Walk(e, fn)
	}
}
