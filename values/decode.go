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
}

// NewDecoder returns a decoder over b.
func NewDecoder(b []byte) *Decoder { return &Decoder{b: b} }

// Reset makes d decode b, reusing the storage of the values it decoded
// before: those must no longer be in use.
func (d *Decoder) Reset(b []byte) {
	d.b, d.off = b, 0
	d.vc, d.vi, d.ui, d.di = 0, 0, 0, 0
	d.noPlan = d.noPlan[:0]
}

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

// More reports whether values remain.
func (d *Decoder) More() bool { return d.off < len(d.b) }

// maxDecodeDepth bounds recursion on a corrupt stream.
const maxDecodeDepth = 64

// Next decodes the next value. At the end of the stream, or after a
// Truncated value, it returns a Truncated value.
func (d *Decoder) Next() (Value, error) {
	return d.value(0)
}

func (d *Decoder) errorf(format string, args ...any) error {
	return fmt.Errorf("values: byte %d: "+format, append([]any{d.off}, args...)...)
}

func (d *Decoder) need(n int) error {
	if n < 0 || d.off+n > len(d.b) {
		return d.errorf("truncated stream (need %d bytes, have %d)", n, len(d.b)-d.off)
	}
	return nil
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
	if depth > maxDecodeDepth {
		return Value{}, d.errorf("values nested deeper than %d", maxDecodeDepth)
	}
	if d.off >= len(d.b) {
		return Value{Shape: Truncated}, nil
	}
	t, _ := d.u8()
	switch t {
	case tagNull:
		return Value{Shape: Null}, nil
	case tagPrim:
		k, err := d.u8()
		if err != nil {
			return Value{}, err
		}
		n := Kind(k).Size()
		if n == 0 {
			return Value{}, d.errorf("primitive of kind %d", k)
		}
		if err := d.need(n); err != nil {
			return Value{}, err
		}
		var bits uint64
		for i := n - 1; i >= 0; i-- {
			bits = bits<<8 | uint64(d.b[d.off+i])
		}
		d.off += n
		return Value{Shape: Prim, Kind: Kind(k), Bits: bits}, nil
	case tagString:
		l, err := d.u32()
		if err != nil {
			return Value{}, err
		}
		n, err := d.u32()
		if err != nil {
			return Value{}, err
		}
		if n > l || d.need(int(n)*2) != nil {
			return Value{}, d.errorf("string of %d copied units (length %d) in %d bytes", n, l, len(d.b)-d.off)
		}
		s := d.str(int(n))
		for i := range s {
			s[i] = binary.LittleEndian.Uint16(d.b[d.off+2*i:])
		}
		d.off += int(n) * 2
		return Value{Shape: String, Str: s, StrLen: l}, nil
	case tagObject, tagStruct:
		cls, err := d.u64()
		if err != nil {
			return Value{}, err
		}
		n, err := d.u16()
		if err != nil {
			return Value{}, err
		}
		if int(n) > len(d.b)-d.off+1 {
			return Value{}, d.errorf("%d fields in %d bytes", n, len(d.b)-d.off)
		}
		v := Value{Shape: Object, Class: cls, Fields: d.children(int(n))}
		if t == tagStruct {
			v.Shape = Struct
		}
		for i := 0; i < int(n); i++ {
			f, err := d.value(depth + 1)
			if err != nil {
				return Value{}, err
			}
			v.Fields = append(v.Fields, f)
			if f.Shape == Truncated {
				break
			}
		}
		return v, nil
	case tagArray:
		cls, err := d.u64()
		if err != nil {
			return Value{}, err
		}
		rank, err := d.u8()
		if err != nil {
			return Value{}, err
		}
		v := Value{Shape: Array, Class: cls}
		if rank > 0 && d.di+int(rank) > len(d.dims) {
			d.dims = make([]uint32, max(256, int(rank))) // the full one stays with its arrays
			d.di = 0
		}
		if rank > 0 {
			v.Dims = d.dims[d.di : d.di : d.di+int(rank)]
			d.di += int(rank)
		}
		for i := 0; i < int(rank); i++ {
			dim, err := d.u32()
			if err != nil {
				return Value{}, err
			}
			v.Dims = append(v.Dims, dim)
		}
		n, err := d.u32()
		if err != nil {
			return Value{}, err
		}
		if int64(n) > int64(len(d.b)-d.off)+1 {
			return Value{}, d.errorf("%d elements in %d bytes", n, len(d.b)-d.off)
		}
		v.Elems = d.children(int(n))
		for i := 0; i < int(n); i++ {
			e, err := d.value(depth + 1)
			if err != nil {
				return Value{}, err
			}
			v.Elems = append(v.Elems, e)
			if e.Shape == Truncated {
				break
			}
		}
		return v, nil
	case tagBoxed:
		cls, err := d.u64()
		if err != nil {
			return Value{}, err
		}
		inner, err := d.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		return Value{Shape: Boxed, Class: cls, Fields: append(d.children(1), inner)}, nil
	case tagNoPlan, tagDepth:
		cls, err := d.u64()
		if err != nil {
			return Value{}, err
		}
		if t == tagNoPlan {
			d.noPlan = append(d.noPlan, cls)
			return Value{Shape: NoPlan, Class: cls}, nil
		}
		return Value{Shape: DepthLimit, Class: cls}, nil
	case tagCycle:
		i, err := d.u8()
		return Value{Shape: Cycle, Index: int(i)}, err
	case tagUnreadable:
		return Value{Shape: Unreadable}, nil
	case tagTrunc:
		d.off = len(d.b)
		return Value{Shape: Truncated}, nil
	case tagPtr:
		a, err := d.u64()
		return Value{Shape: Pointer, Addr: a}, err
	case tagSkip:
		return Value{Shape: Skipped}, nil
	case tagRedacted:
		return Value{Shape: Redacted}, nil
	}
	d.off--
	return Value{}, d.errorf("unknown tag %d", t)
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
