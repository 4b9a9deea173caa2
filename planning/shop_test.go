package planning

import (
	"testing"

	"github.com/clrotel/clrotel/naming"
)

// The classes of the test app (module app) and the CoreLib generics it uses.
const (
	cidItem = 100 + iota
	cidPoint
	cidLine
	cidColor
	cidSpecial
	cidPairIntDouble
	cidHolderInt
	cidNullableInt
	cidPerm
	cidList
	cidIntArray
	cidStringArray
	cidPointArray
	cidIntMatrix
	cidHolderCanon
	cidMoney
)

const (
	tdItem     = 0x02000010
	tdPoint    = 0x02000011
	tdLine     = 0x02000012
	tdColor    = 0x02000013
	tdSpecial  = 0x02000014
	tdPair     = 0x02000015
	tdHolder   = 0x02000016
	tdPerm     = 0x02000017
	tdMoney    = 0x02000018
	tdNullable = 0x0200000a
	tdList     = 0x0200000b
	// refNullable is the app module's TypeRef to System.Nullable`1.
	refNullable = 0x01000004
	refList     = 0x01000005
)

// newShop is a fake runtime with the test app loaded.
func newShop(t *testing.T) *fakeSource {
	f := newFake(t)

	item := f.add(cidItem, app, tdItem, "Acme.Item", "Acme.Item", cidObject)
	f.field(item, 0x04000100, "<Name>k__BackingField", sig(0x0e), 8)
	f.field(item, 0x04000101, "Price", sig(0x0d), 16)
	f.field(item, 0x04000102, "<Password>k__BackingField", sig(0x0e), 24)
	f.field(item, 0x04000103, "<clrotel>state", sig(0x0a), 32)
	f.def(item, 0x04000104, "Count", sig(0x08), 0x16) // static
	item.size = 40

	special := f.add(cidSpecial, app, tdSpecial, "Acme.Special", "Acme.Special", cidItem)
	f.field(special, 0x04000110, "Extra", sig(0x08), 40)
	special.size = 48

	point := f.valueType(cidPoint, tdPoint, "Acme.Point", 8)
	f.field(point, 0x04000120, "X", sig(0x08), 0)
	f.field(point, 0x04000121, "Y", sig(0x08), 4)

	// struct Money { Single Amount; Int16 Cents; }: in an SSE register.
	money := f.valueType(cidMoney, tdMoney, "Acme.Money", 8)
	f.field(money, 0x04000125, "Amount", sig(0x0c), 0)
	f.field(money, 0x04000126, "Cents", sig(0x06), 4)

	line := f.valueType(cidLine, tdLine, "Acme.Line", 16)
	f.field(line, 0x04000130, "A", sig(0x11, tdef(tdPoint)), 0)
	f.field(line, 0x04000131, "B", sig(0x11, tdef(tdPoint)), 8)

	color := f.add(cidColor, app, tdColor, "Acme.Color", "Acme.Color", cidEnum)
	f.field(color, 0x04000140, "value__", sig(0x08), 0)
	for i, n := range []string{"Red", "Green", "Blue", "Crimson"} {
		fd := uint32(0x04000141 + i)
		f.def(color, fd, n, sig(0x11, tdef(tdColor)), 0x8056)    // static literal
		f.consts[[2]uint64{app, uint64(fd)}] = uint64(min(i, 2)) // Crimson == Blue
	}
	color.size, color.box = 4, 8

	perm := f.add(cidPerm, app, tdPerm, "Acme.Perm", "Acme.Perm", cidEnum)
	f.field(perm, 0x04000150, "value__", sig(0x05), 0)
	for i, n := range []string{"Read", "Write"} {
		fd := uint32(0x04000151 + i)
		f.def(perm, fd, n, sig(0x11, tdef(tdPerm)), 0x8056)
		f.consts[[2]uint64{app, uint64(fd)}] = 1 << i
	}
	f.attr(app, tdPerm, "System.FlagsAttribute")
	perm.size, perm.box = 1, 8

	// struct Pair<A, B> { A First; B Second; } and class Holder<T> { T Value; }
	pair := f.valueType(0, tdPair, "Acme.Pair`2", 0)
	f.field(pair, 0x04000160, "First", sig(0x13, 0), 0)
	f.field(pair, 0x04000161, "Second", sig(0x13, 1), 8)
	pi := f.instance(cidPairIntDouble, app, tdPair, []uint64{cidInt32, cidDouble}, "Acme.Pair<Int32, Double>")
	pi.layout, pi.size, pi.box = pair.layout, 16, 8

	holder := f.add(0, app, tdHolder, "Acme.Holder`1", "Acme.Holder`1", cidObject)
	f.field(holder, 0x04000170, "Value", sig(0x13, 0), 8)
	hi := f.instance(cidHolderInt, app, tdHolder, []uint64{cidInt32}, "Acme.Holder<Int32>")
	hi.layout, hi.size = holder.layout, 16
	hc := f.instance(cidHolderCanon, app, tdHolder, []uint64{cidCanon}, "Acme.Holder<System.__Canon>")
	hc.layout, hc.size = holder.layout, 16

	nullable := f.add(0, core, tdNullable, "System.Nullable`1", "System.Nullable`1", cidValueType)
	f.field(nullable, 0x04000030, "hasValue", sig(0x02), 0)
	f.field(nullable, 0x04000031, "value", sig(0x13, 0), 4)
	ni := f.instance(cidNullableInt, core, tdNullable, []uint64{cidInt32}, "System.Nullable<Int32>")
	ni.layout, ni.size, ni.box = nullable.layout, 8, 8
	f.typeRefs[[2]uint64{app, refNullable}] = typeRef{"System.Nullable`1", 0x23000001}
	f.typeRefs[[2]uint64{app, refList}] = typeRef{"System.Collections.Generic.List`1", 0x23000001}

	list := f.add(0, core, tdList, "System.Collections.Generic.List`1", "System.Collections.Generic.List`1", cidObject)
	f.field(list, 0x04000040, "_items", sig(0x1d, 0x13, 0), 8)
	f.field(list, 0x04000041, "_size", sig(0x08), 16)
	f.field(list, 0x04000042, "_version", sig(0x08), 20)
	li := f.instance(cidList, core, tdList, []uint64{cidInt32}, "System.Collections.Generic.List<Int32>")
	li.layout, li.size = list.layout, 24

	f.types[cidIntArray] = &fakeType{cid: cidIntArray, name: "Int32[]", class: naming.Class{Module: core, IsArray: true, Elem: naming.ElemI4, ElemCls: cidInt32, Rank: 1}}
	f.types[cidStringArray] = &fakeType{cid: cidStringArray, name: "String[]", class: naming.Class{Module: core, IsArray: true, Elem: naming.ElemString, ElemCls: cidString, Rank: 1}}
	f.types[cidPointArray] = &fakeType{cid: cidPointArray, name: "Acme.Point[]", class: naming.Class{Module: core, IsArray: true, Elem: naming.ElemValueType, ElemCls: cidPoint, Rank: 1}}
	f.types[cidIntMatrix] = &fakeType{cid: cidIntMatrix, name: "Int32[,]", class: naming.Class{Module: core, IsArray: true, Elem: naming.ElemI4, Rank: 2}}
	return f
}
