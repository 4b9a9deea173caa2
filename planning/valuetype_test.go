package planning

import (
	"errors"
	"testing"
)

// names is a module's metadata as ValueType reads it: base types by
// TypeDef, names by TypeRef and TypeDef.
type names struct {
	base  map[uint32]uint32
	names map[uint32]string
}

var errNoRow = errors.New("no such row")

func (n names) TypeDefName(_ uint64, td uint32) (string, error) { return n.name(td) }
func (n names) TypeRefName(_ uint64, tr uint32) (string, uint32, error) {
	s, err := n.name(tr)
	return s, 0, err
}
func (n names) BaseType(_ uint64, td uint32) (uint32, error) {
	b, ok := n.base[td]
	if !ok {
		return 0, errNoRow
	}
	return b, nil
}
func (n names) name(tok uint32) (string, error) {
	s, ok := n.names[tok]
	if !ok {
		return "", errNoRow
	}
	return s, nil
}

func TestValueType(t *testing.T) {
	const (
		refValueType = 0x01000001
		refEnum      = 0x01000002
		refObject    = 0x01000003
		refGone      = 0x01000004
		defValueType = 0x02000010 // inside CoreLib, its own TypeDef
	)
	src := names{
		base: map[uint32]uint32{
			0x02000001: refValueType, 0x02000002: refEnum, 0x02000003: refObject,
			0x02000004: 0, 0x02000005: defValueType, 0x02000006: refGone, 0x02000007: 0x02000003,
		},
		names: map[uint32]string{
			refValueType: "System.ValueType", refEnum: "System.Enum", refObject: "System.Object",
			defValueType: "System.ValueType", 0x02000003: "Acme.Base",
		},
	}
	for _, c := range []struct {
		name string
		td   uint32
		want bool
	}{
		{"a struct", 0x02000001, true},
		{"an enum", 0x02000002, true},
		{"a class", 0x02000003, false},
		{"an interface or System.Object: no base", 0x02000004, false},
		{"a CoreLib struct, its base a TypeDef", 0x02000005, true},
		{"a base whose name cannot be read", 0x02000006, false},
		{"a class deriving from a class of the module", 0x02000007, false},
		{"no such TypeDef", 0x02000099, false},
	} {
		if got := ValueType(src, 1, c.td); got != c.want {
			t.Errorf("%s: ValueType(%#x) = %v, want %v", c.name, c.td, got, c.want)
		}
	}
}
