package naming

import (
	"errors"
	"reflect"
	"testing"
)

func TestParamRows(t *testing.T) {
	rows := map[uint32]ParamRow{0x08000001: {Seq: 0, Attrs: 0}, 0x08000002: {Seq: 1, Name: "id", Attrs: 1}, 0x08000004: {Seq: 2, Name: "out", Attrs: 2}}
	row := func(pd uint32) (ParamRow, error) {
		if r, ok := rows[pd]; ok {
			return r, nil
		}
		return ParamRow{}, errors.New("GetParamProps: HRESULT 0x80131124")
	}
	got := ParamRows([]uint32{0x08000001, 0x08000002, 0x08000003, 0x08000004}, row)
	want := []ParamRow{{Seq: 0}, {Seq: 1, Name: "id", Attrs: 1}, {Seq: 2, Name: "out", Attrs: 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows %+v, want %+v (the unreadable one left out)", got, want)
	}
	if got := ParamRows(nil, row); got == nil || len(got) != 0 {
		t.Errorf("no params: %#v", got)
	}
}

func TestGenericParamNames(t *testing.T) {
	params := map[uint32]struct {
		seq  uint32
		name string
	}{0x2a000001: {1, "TValue"}, 0x2a000002: {0, "TKey"}, 0x2a000003: {7, "TOut"}}
	param := func(gp uint32) (uint32, string, error) {
		if p, ok := params[gp]; ok {
			return p.seq, p.name, nil
		}
		return 0, "", errors.New("GetGenericParamProps: HRESULT 0x80131124")
	}
	for _, c := range []struct {
		toks []uint32
		want []string
	}{
		{[]uint32{0x2a000001, 0x2a000002}, []string{"TKey", "TValue"}},                 // by number, not by token
		{[]uint32{0x2a000001, 0x2a000002, 0x2a000003}, []string{"TKey", "TValue", ""}}, // a number out of range
		{[]uint32{0x2a000002, 0x2a000009}, []string{"TKey", ""}},                       // unreadable
		{nil, []string{}},
	} {
		if got := GenericParamNames(c.toks, param); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%x: %q, want %q", c.toks, got, c.want)
		}
	}
}
