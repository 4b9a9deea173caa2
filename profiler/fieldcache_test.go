package main

import (
	"errors"
	"slices"
	"testing"

	"github.com/clrotel/clrotel/flows"
)

func TestAddedFieldCache(t *testing.T) {
	c := &fieldCache{}
	one := addedByKind{{1, 2, 3, 4}, {5, 6, 7, 8, 9}, nil}
	two := addedByKind{nil, nil, {10, 11, 12, 13}}
	answer := func(a addedByKind) func() (addedByKind, error) {
		return func() (addedByKind, error) { return a, nil }
	}
	unasked := func() (addedByKind, error) {
		t.Fatal("asked again")
		return addedByKind{}, nil
	}
	if got, _ := c.addedAll(0x02000001, answer(one)); got[0][0] != 1 {
		t.Fatalf("first answer: %v", got)
	}
	if got, _ := c.addedAll(0x02000002, answer(two)); got[0] != nil || got[2][0] != 10 {
		t.Errorf("another type: %v, want %v", got, two)
	}
	if got, _ := c.addedAll(0x02000001, unasked); got[1][4] != 9 {
		t.Errorf("cached: %v, want %v", got, one)
	}
	// Each kind is its own answer.
	md := metadata{fields: c}
	for _, k := range []struct {
		td   uint32
		kind int
		want []uint32
	}{
		{0x02000001, kindStateMachine, one[0]},
		{0x02000001, kindClosure, one[1]},
		{0x02000001, kindIterator, nil},
		{0x02000002, kindStateMachine, nil},
		{0x02000002, kindIterator, two[2]},
	} {
		if got, err := md.addedFields(k.td, k.kind); err != nil || !slices.Equal(got, k.want) {
			t.Errorf("addedFields(%#x, %d) = %v, %v; want %v", k.td, k.kind, got, err, k.want)
		}
	}
	// A failure is asked again.
	if _, err := c.addedAll(0x02000003, func() (addedByKind, error) { return addedByKind{}, errors.New("no") }); err == nil {
		t.Error("failure not reported")
	}
	if got, err := c.addedAll(0x02000003, answer(two)); err != nil || got[2][3] != 13 {
		t.Errorf("after a failure: %v, %v", got, err)
	}
}

func TestFieldPropsCache(t *testing.T) {
	c := &fieldCache{}
	answer := func(f fieldInfo) func() (fieldInfo, error) {
		return func() (fieldInfo, error) { return f, nil }
	}
	c.fieldProps(0x04000001, answer(fieldInfo{"_count", []byte{6, 8}, 1}))
	c.fieldProps(0x04000002, answer(fieldInfo{"_items", []byte{6, 0x1d, 8}, 0x10}))
	if _, err := c.fieldProps(0x04000003, func() (fieldInfo, error) { return fieldInfo{}, errors.New("no") }); err == nil {
		t.Error("failure not reported")
	}
	unasked := func() (fieldInfo, error) {
		t.Fatal("asked again")
		return fieldInfo{}, nil
	}
	if f, _ := c.fieldProps(0x04000001, unasked); f.name != "_count" || f.attrs != 1 || !slices.Equal(f.sig, []byte{6, 8}) {
		t.Errorf("field 1: %+v", f)
	}
	if f, _ := c.fieldProps(0x04000002, unasked); f.name != "_items" || f.attrs != 0x10 {
		t.Errorf("field 2: %+v", f)
	}
	if f, _ := c.fieldProps(0x04000003, answer(fieldInfo{name: "_version"})); f.name != "_version" {
		t.Errorf("after a failure: %+v", f)
	}
	// No cache (a metadata value made without one): asked each time.
	var none *fieldCache
	for _, name := range []string{"a", "b"} {
		if f, _ := none.fieldProps(0x04000001, answer(fieldInfo{name: name})); f.name != name {
			t.Errorf("uncached: %q, want %q", f.name, name)
		}
	}
}

// TestTypeKindsAreAsyncH: flows numbers the kinds of types given fields as
// async.h does; scanAdded indexes flows.Added by async.h's numbers.
func TestTypeKindsAreAsyncH(t *testing.T) {
	for _, k := range []struct {
		flows flows.TypeKind
		c     int
	}{{flows.StateMachineType, kindStateMachine}, {flows.ClosureType, kindClosure}, {flows.IteratorType, kindIterator}} {
		if int(k.flows) != k.c {
			t.Errorf("flows kind %d is async.h's %d", k.flows, k.c)
		}
	}
	if len(flows.Added{}) != kindIterator+1 {
		t.Errorf("flows.Added has %d kinds, async.h %d", len(flows.Added{}), kindIterator+1)
	}
}
