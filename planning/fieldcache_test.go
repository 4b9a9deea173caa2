package planning

import (
	"errors"
	"slices"
	"testing"

	"github.com/clrotel/clrotel/flows"
)

// countingFields is a module's fields that counts each question and fails
// the ones listed in fail, once each.
type countingFields struct {
	types  map[uint32][]uint32
	props  map[uint32]FieldProps
	fail   map[uint32]bool
	asked  map[uint32]int // per token, TypeDef or FieldDef
	failed map[uint32]bool
}

func (m *countingFields) once(tok uint32) error {
	m.asked[tok]++
	if m.fail[tok] && !m.failed[tok] {
		m.failed[tok] = true
		return errors.New("not now")
	}
	return nil
}

func (m *countingFields) Fields(td uint32) ([]uint32, error) {
	if err := m.once(td); err != nil {
		return nil, err
	}
	return m.types[td], nil
}

func (m *countingFields) Field(fd uint32) (FieldProps, error) {
	if err := m.once(fd); err != nil {
		return FieldProps{}, err
	}
	return m.props[fd], nil
}

// addedNames: the state machine's flow0..flow1, the closure's link0, the
// iterator's iter0.
type addedNames struct{}

var addedByKind = [][]string{{"<clrotel>flow0", "<clrotel>flow1"}, {"<clrotel>link0"}, {"<clrotel>iter0"}}

func (addedNames) Count(kind flows.TypeKind) int { return len(addedByKind[kind]) }
func (addedNames) Index(name string, kind flows.TypeKind) int {
	return slices.Index(addedByKind[kind], name)
}

func TestFieldCache(t *testing.T) {
	md := &countingFields{
		types: map[uint32][]uint32{
			0x02000001: {0x04000001, 0x04000002, 0x04000003}, // a state machine
			0x02000002: {0x04000004, 0x04000005},             // a closure
			0x02000003: {0x04000001},                         // a state machine missing flow1: none
			0x02000004: {0x04000006},                         // fails once
		},
		props: map[uint32]FieldProps{
			0x04000001: {"<clrotel>flow0", []byte{6, 0x0b}, 1}, 0x04000002: {"<>1__state", []byte{6, 8}, 1},
			0x04000003: {"<clrotel>flow1", []byte{6, 0x0b}, 1}, 0x04000004: {"<clrotel>link0", []byte{6, 0x0b}, 1},
			0x04000005: {"x", []byte{6, 8}, 6}, 0x04000006: {"<clrotel>iter0", []byte{6, 0x0b}, 1},
		},
		fail:  map[uint32]bool{0x02000004: true, 0x04000005: true},
		asked: map[uint32]int{}, failed: map[uint32]bool{},
	}
	c := NewFieldCache(md, addedNames{})
	for _, k := range []struct {
		name    string
		td      uint32
		want    flows.Added
		wantErr bool
	}{
		{"state machine", 0x02000001, flows.Added{{0x04000001, 0x04000003}}, false},
		{"again, from the cache", 0x02000001, flows.Added{{0x04000001, 0x04000003}}, false},
		{"closure (a field unreadable is not one)", 0x02000002, flows.Added{nil, {0x04000004}}, false},
		{"not all fields: none", 0x02000003, flows.Added{}, false},
		{"a failure", 0x02000004, flows.Added{}, true},
		{"asked again after a failure", 0x02000004, flows.Added{nil, nil, {0x04000006}}, false},
	} {
		got, err := c.Added(k.td)
		if (err != nil) != k.wantErr || !slices.EqualFunc(got[:], k.want[:], slices.Equal) {
			t.Errorf("%s: Added(%#x) = %v, %v; want %v (error %v)", k.name, k.td, got, err, k.want, k.wantErr)
		}
	}
	// Each type's fields and each field's properties asked once, but for
	// the failures, asked twice.
	for tok, want := range map[uint32]int{0x02000001: 1, 0x02000002: 1, 0x02000003: 1, 0x02000004: 2,
		0x04000001: 1, 0x04000002: 1, 0x04000004: 1, 0x04000005: 1, 0x04000006: 1} {
		if md.asked[tok] != want {
			t.Errorf("%#x asked %d times, want %d", tok, md.asked[tok], want)
		}
	}
	// A field's properties come from the cache; the one that failed is
	// asked again.
	if f, err := c.Field(0x04000002); err != nil || f.Name != "<>1__state" || md.asked[0x04000002] != 1 {
		t.Errorf("Field: %+v, %v, asked %d times", f, err, md.asked[0x04000002])
	}
	if f, err := c.Field(0x04000005); err != nil || f.Attrs != 6 || md.asked[0x04000005] != 2 {
		t.Errorf("Field after a failure: %+v, %v, asked %d times", f, err, md.asked[0x04000005])
	}
	// A type's field list is the metadata's, asked each time.
	if got, err := c.Fields(0x02000002); err != nil || len(got) != 2 || md.asked[0x02000002] != 2 {
		t.Errorf("Fields: %v, %v, asked %d times", got, err, md.asked[0x02000002])
	}
}
