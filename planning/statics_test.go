package planning

import (
	"reflect"
	"testing"

	"github.com/clrotel/clrotel/values"
)

func TestStatics(t *testing.T) {
	f := newShop(t)
	item := f.byDef[[2]uint64{app, tdItem}]
	f.def(item, 0x04000180, "Current", sig(0x12, tdef(tdItem)), 0x16)
	f.def(item, 0x04000181, "Origin", sig(0x11, tdef(tdPoint)), 0x16)
	f.def(item, 0x04000182, "PerThread", sig(0x08), 0x16)
	f.attr(app, 0x04000182, "System.ThreadStaticAttribute")
	f.def(item, 0x04000183, "Table", sig(0x08), 0x116) // fdHasFieldRVA
	f.def(item, 0x04000184, "PerContext", sig(0x08), 0x16)
	f.attr(app, 0x04000184, "System.ContextStaticAttribute")
	f.def(item, 0x04000185, "ApiSecret", sig(0x0e), 0x16)

	statics := []string{"Acme.Item.Count", "Acme.Item.Current", "Acme.Item.Origin", "Acme.Item.PerThread", "Acme.Item.Table",
		"Acme.Item.PerContext", "Acme.Item.ApiSecret", "Acme.Item.Missing", "Acme.Item.Price", "Acme.Other.Count"}
	pl, _, log := newTest(f, Options{Statics: statics})
	got := pl.Function(instance(method("Get", tVoid), tdItem, cidItem))
	want := []Static{
		{ClassID: cidItem, Field: 0x04000104, Where: StaticAppDomain, Value: Value{Kind: values.KindI4}},
		{ClassID: cidItem, Field: 0x04000180, Where: StaticAppDomain, Value: Value{Kind: values.KindRef}},
		{ClassID: cidItem, Field: 0x04000181, Where: StaticAppDomain, Value: Value{Kind: values.KindStruct, Class: pointPlan()}},
		{ClassID: cidItem, Field: 0x04000182, Where: StaticThread, Value: Value{Kind: values.KindI4}},
		{ClassID: cidItem, Field: 0x04000183, Where: StaticRVA, Value: Value{Kind: values.KindI4}},
		{ClassID: cidItem, Field: 0x04000185, Where: StaticAppDomain, Value: Value{Kind: values.KindRef, Redact: true}},
	}
	if !reflect.DeepEqual(got.Statics, want) {
		t.Errorf("statics\n got %+v\nwant %+v", got.Statics, want)
	}
	keys := []string{"dotnet.this", "dotnet.static.Count", "dotnet.static.Current", "dotnet.static.Origin", "dotnet.static.PerThread",
		"dotnet.static.Table", "dotnet.static.ApiSecret"}
	if !reflect.DeepEqual(got.Enter, slots(keys...)) {
		t.Errorf("slots %+v", got.Enter)
	}
	for _, w := range []string{
		"statics: Acme.Item.PerContext is [ContextStatic]",
		"statics: Acme.Item has no static field Missing",
		"statics: Acme.Item has no static field Price", // an instance field
	} {
		if !log.has(w) {
			t.Errorf("no warning %q in %q", w, log.warnings)
		}
	}
	if len(log.warnings) != 3 {
		t.Errorf("warnings %q", log.warnings)
	}

	// Shared generic code has no class to read statics of.
	shared := instance(method("Get", tVoid), tdItem, 0)
	if got := pl.Function(shared); got.Statics != nil {
		t.Errorf("statics of shared code: %+v", got.Statics)
	}
	if !log.has("statics of Acme.Item: not read in shared generic code") {
		t.Errorf("warnings %q", log.warnings)
	}
}
