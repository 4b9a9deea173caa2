package naming

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
)

// fakeNameAPI behaves as IMetaDataImport does with a name: it reports the
// full length (NUL included), writes at most the capacity it is told and
// fails with CLDB_S_TRUNCATION when the name did not fit. It fails the
// test when a buffer comes with no room or room comes with no buffer.
type fakeNameAPI struct {
	t        *testing.T
	name     []uint16
	okTrunc  bool  // report a cut name as success (GetModuleInfo style)
	grow     int   // units added to the name before the third call
	fail     int32 // HRESULT of every call
	calls    int
	lastCaps []int
}

func (f *fakeNameAPI) call(buf []uint16) (uint32, int32) {
	f.calls++
	f.lastCaps = append(f.lastCaps, len(buf))
	if f.calls == 3 && f.grow > 0 {
		f.name = append(f.name, make([]uint16, f.grow)...)
		for i := range f.name {
			if f.name[i] == 0 {
				f.name[i] = 'g'
			}
		}
	}
	if f.fail != 0 {
		return 0, f.fail
	}
	need := len(f.name) + 1
	if buf == nil {
		return uint32(need), 0
	}
	if len(buf) == 0 {
		f.t.Fatal("a non-nil buffer with capacity 0")
	}
	n := copy(buf, f.name)
	if n < len(buf) {
		buf[n] = 0
	}
	if need > len(buf) && !f.okTrunc {
		return uint32(need), 0x00131106 // CLDB_S_TRUNCATION
	}
	return uint32(need), 0
}

func TestReadName(t *testing.T) {
	long := strings.Repeat("Acme.Shop.VeryLongGenericTypeName", 20) // 660 units
	tests := []struct {
		name    string
		api     fakeNameAPI
		want    string
		wantErr string
		calls   int
	}{
		{name: "short: one call", api: fakeNameAPI{name: utf16.Encode([]rune("Acme.Shop.Cart"))}, want: "Acme.Shop.Cart", calls: 1},
		{name: "non-ASCII", api: fakeNameAPI{name: utf16.Encode([]rune("Größe€😀"))}, want: "Größe€😀", calls: 1},
		{name: "empty", api: fakeNameAPI{name: nil}, want: "", calls: 1},
		{name: "exactly fits", api: fakeNameAPI{name: utf16.Encode([]rune(strings.Repeat("x", nameFirst-1)))}, want: strings.Repeat("x", nameFirst-1), calls: 1},
		{name: "one past: asked again", api: fakeNameAPI{name: utf16.Encode([]rune(strings.Repeat("x", nameFirst)))}, want: strings.Repeat("x", nameFirst), calls: 3},
		{name: "long, truncation status", api: fakeNameAPI{name: utf16.Encode([]rune(long))}, want: long, calls: 3},
		{name: "long, cut but success", api: fakeNameAPI{name: utf16.Encode([]rune(long)), okTrunc: true}, want: long, calls: 3},
		{name: "failure", api: fakeNameAPI{fail: -2147024809}, wantErr: "GetTypeDefProps: HRESULT 0x80070057", calls: 2},
		{name: "too long", api: fakeNameAPI{name: make([]uint16, MaxName+5)}, wantErr: "a name of", calls: 2},
		{name: "grew between calls", api: fakeNameAPI{name: utf16.Encode([]rune(long)), grow: 10, okTrunc: true}, wantErr: "grew", calls: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := tt.api
			api.t = t
			got, err := ReadName("GetTypeDefProps", api.call)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
			} else if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
			if api.calls != tt.calls {
				t.Errorf("%d calls (capacities %v), want %d", api.calls, api.lastCaps, tt.calls)
			}
		})
	}
}

// fakeEnum is a metadata enumeration of n tokens (1, 2, ...) that grows by
// grow before each call after the first, or fails with fail.
type fakeEnum struct {
	n, grow int
	fail    int32
	calls   []int // the capacity of each call
}

func (e *fakeEnum) call(buf []uint32) (uint32, uint32, int32) {
	if len(e.calls) > 0 {
		e.n += e.grow
	}
	e.calls = append(e.calls, len(buf))
	if e.fail != 0 {
		return 0, 0, e.fail
	}
	count := min(e.n, len(buf))
	for i := range count {
		buf[i] = uint32(i + 1)
	}
	return uint32(count), uint32(e.n), 0
}

func TestReadTokens(t *testing.T) {
	for _, tc := range []struct {
		name    string
		enum    fakeEnum
		want    int   // tokens read
		calls   []int // capacities asked with
		wantErr string
	}{
		{name: "empty", enum: fakeEnum{}, want: 0, calls: []int{4}},
		{name: "fits", enum: fakeEnum{n: 4}, want: 4, calls: []int{4}},
		{name: "asked again with room for all", enum: fakeEnum{n: 9}, want: 9, calls: []int{4, 9}},
		{name: "grows between the calls", enum: fakeEnum{n: 9, grow: 1}, wantErr: "EnumFields: the enumeration keeps growing", calls: []int{4, 9}},
		{name: "too many", enum: fakeEnum{n: MaxName + 1}, wantErr: "EnumFields: 65537 entries", calls: []int{4}},
		{name: "fails", enum: fakeEnum{fail: -2147024809}, wantErr: "EnumFields: HRESULT 0x80070057", calls: []int{4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadTokens("EnumFields", 4, tc.enum.call)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Errorf("error %v; want %q", err, tc.wantErr)
				}
			} else if err != nil || len(got) != tc.want || (tc.want > 0 && got[tc.want-1] != uint32(tc.want)) {
				t.Errorf("ReadTokens = %v, %v; want %d tokens", got, err, tc.want)
			}
			if !reflect.DeepEqual(tc.enum.calls, tc.calls) {
				t.Errorf("asked with capacities %v; want %v", tc.enum.calls, tc.calls)
			}
		})
	}
}
