package values

import (
	"testing"
)

// countingTypes renders class 10 by a fixed text and declines every other
// class, counting what it is asked.
type countingTypes struct {
	chooser       bool
	renders, asks int
}

func (c *countingTypes) Render(ci ClassInfo, v Value, _ Context) (Rendering, bool) {
	c.renders++
	if ci.Name == "Acme.Item" {
		return Rendering{Text: "an item"}, true
	}
	return Rendering{}, false
}

type chooserTypes struct{ *countingTypes }

func (c chooserTypes) Renders(ci ClassInfo) bool {
	c.asks++
	return ci.Name == "Acme.Item"
}

// What a Renderer keeps of a class follows the Classes' generation, and a
// RenderChooser is asked once per class, Render only for the classes it
// chose; the attributes are the same either way.
func TestKnownClasses(t *testing.T) {
	item := (&enc{}).obj(10, 3).str("pen", 99).prim(KindR8, 0).prim(KindI4, 1).b
	point := (&enc{}).obj(14, 2).prim(KindI4, 1).prim(KindI4, 2).b
	slots := []Slot{{Key: "dotnet.arg.item"}, {Key: "dotnet.arg.point"}}
	vals, _ := stream(t, append(append([]byte{}, item...), point...))

	for _, chooser := range []bool{false, true} {
		cls := &versioned{fakeClasses: fakeClasses{}}
		for id, c := range classes {
			cls.fakeClasses[id] = c
		}
		counting := &countingTypes{}
		var types TypeRenderer = counting
		if chooser {
			types = chooserTypes{counting}
		}
		r := &Renderer{Classes: cls, Limits: DefaultLimits, Types: types}
		plain := &Renderer{Classes: cls, Limits: DefaultLimits, Types: &countingTypes{}}
		for round := 0; round < 3; round++ {
			got, _ := r.Attrs(slots, vals)
			want, _ := plain.Attrs(slots, vals)
			if len(got) != len(want) {
				t.Fatalf("chooser %v round %d: %v, want %v", chooser, round, got, want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("chooser %v round %d: %v, want %v", chooser, round, got, want)
				}
			}
		}
		if chooser && (counting.asks != 2 || counting.renders != 3) {
			t.Errorf("chooser: asked %d times (want 2: once per class), Render %d times (want 3: the item's)", counting.asks, counting.renders)
		}
		if !chooser && counting.renders != 6 {
			t.Errorf("no chooser: Render %d times, want 6 (each object)", counting.renders)
		}

		// A class the Classes now answer differently, under a new generation.
		p := cls.fakeClasses[14]
		p.Name = "Geometry.Vector"
		cls.fakeClasses[14] = p
		cls.gen++
		got, _ := r.Attrs(slots, vals)
		found := false
		for _, kv := range got {
			if kv.Key == "dotnet.arg.point" && kv.Value.AsString() == "Geometry.Vector{X=1, Y=2}" {
				found = true
			}
		}
		if !found {
			t.Errorf("chooser %v: after the generation moved, %v", chooser, got)
		}
	}
}
