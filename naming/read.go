package naming

import (
	"fmt"
	"sync"
	"unicode/utf16"
)

// MaxName bounds a name the runtime reports (UTF-16 units): metadata
// strings are far shorter; a larger length is treated as an error.
const MaxName = 1 << 16

// nameFirst is the capacity of the buffer a name is first read into:
// metadata names are almost always shorter, so one call reads them.
const nameFirst = 256

// firstBufs holds the buffers names are first read into (a name is read
// many times a second while an app starts).
var firstBufs = sync.Pool{New: func() any { return new([nameFirst]uint16) }}

// ReadName reads a name from the runtime in one call into a buffer of nameFirst units. A
// longer name (the call fails, or reports more than fit) is asked for its
// length with no buffer and read again into a buffer of exactly that size.
// No buffer is ever shorter than the capacity the runtime is told (call
// passes len(buf), and NULL with 0 for an empty buf), and no name is ever
// cut. call returns the length the runtime reports, terminating NUL
// included, and the HRESULT; the other results of the API are those of
// its last call.
func ReadName(what string, call func(buf []uint16) (n uint32, hr int32)) (string, error) {
	first := firstBufs.Get().(*[nameFirst]uint16)
	got, hr := call(first[:])
	if hr == 0 && got <= nameFirst {
		s := utf16String(first[:], got)
		firstBufs.Put(first)
		return s, nil
	}
	firstBufs.Put(first)
	n, hr := call(nil)
	if hr != 0 {
		return "", fmt.Errorf("%s: HRESULT %#x", what, uint32(hr))
	}
	if n == 0 {
		return "", nil
	}
	if n > MaxName {
		return "", fmt.Errorf("%s: a name of %d characters", what, n)
	}
	buf := make([]uint16, n)
	got, hr = call(buf)
	if hr != 0 {
		return "", fmt.Errorf("%s: HRESULT %#x", what, uint32(hr))
	}
	if got > n {
		return "", fmt.Errorf("%s: the name grew from %d to %d characters", what, n, got)
	}
	return utf16String(buf, got), nil
}

// utf16String decodes the first n units of buf (a length the runtime
// reports includes the terminating NUL).
func utf16String(buf []uint16, n uint32) string {
	l := min(int(n), len(buf))
	for l > 0 && buf[l-1] == 0 {
		l--
	}
	b := make([]byte, l)
	for i, u := range buf[:l] {
		if u >= 0x80 {
			return string(utf16.Decode(buf[:l]))
		}
		b[i] = byte(u)
	}
	return string(b)
}

// ReadTokens reads every token of a metadata enumeration. call fills buf
// and reports how many tokens it wrote and how many there are in all, and
// the HRESULT; when buf was too small it is asked again with room for all
// of them (at most MaxName).
func ReadTokens(what string, first int, call func(buf []uint32) (count, total uint32, hr int32)) ([]uint32, error) {
	toks := make([]uint32, first)
	for range 2 {
		count, total, hr := call(toks)
		if hr != 0 {
			return nil, fmt.Errorf("%s: HRESULT %#x", what, uint32(hr))
		}
		if int(total) <= len(toks) {
			return toks[:min(int(count), len(toks))], nil
		}
		if total > MaxName {
			return nil, fmt.Errorf("%s: %d entries", what, total)
		}
		toks = make([]uint32, total)
	}
	return nil, fmt.Errorf("%s: the enumeration keeps growing", what)
}
