package planning

import (
	"strings"

	"github.com/clrotel/clrotel/naming"
)

// What the runtime and metadata say of a loaded class does not change
// while it is loaded, and a class's parents are asked again for each
// class derived from them (every node of a syntax tree walks its
// parents' fields): each is asked once, on the thread that plans, with
// mu held. Only answers are kept: a failed question (a class not fully
// loaded yet) is asked again.

// ownField is one instance field a class declares itself (not its
// parents'), as its plan needs it.
type ownField struct {
	name   string
	offset uint32
	typ    naming.Type
	typed  bool // typ was read from the field's signature
	redact bool // its value is not read (Options.Redact)
}

// classFacts is what is known of one ClassID's class and own fields.
type classFacts struct {
	class   naming.Class
	hasCls  bool
	fields  []ownField
	size    uint32
	laidOut bool
}

func (pl *Planner) facts(cid uint64) *classFacts {
	f := pl.known[cid]
	if f == nil {
		f = &classFacts{}
		pl.known[cid] = f
	}
	return f
}

// class is src.Class, once per ClassID.
func (pl *Planner) class(cid uint64) (naming.Class, error) {
	f := pl.facts(cid)
	if f.hasCls {
		return f.class, nil
	}
	c, err := pl.src.Class(cid)
	if err != nil {
		return c, err
	}
	f.class, f.hasCls = c, true
	return c, nil
}

// ownFields are the instance fields class cid (c) declares, in layout
// order, and its size (src.Layout), once per ClassID. A field whose
// metadata cannot be read, a static (no offset in the object) and the
// profiler's own fields (async.c: not the app's state) are left out.
func (pl *Planner) ownFields(cid uint64, c naming.Class) ([]ownField, uint32, error) {
	f := pl.facts(cid)
	if f.laidOut {
		return f.fields, f.size, nil
	}
	layout, size, err := pl.src.Layout(cid)
	if err != nil {
		return nil, 0, err
	}
	fields := make([]ownField, 0, len(layout))
	for _, l := range layout {
		fp, err := pl.src.Field(c.Module, l.Token)
		if err != nil || fp.Attrs&fieldStatic != 0 || strings.HasPrefix(fp.Name, "<clrotel>") {
			continue
		}
		ft, err := naming.ParseFieldSig(fp.Sig)
		fields = append(fields, ownField{name: fp.Name, offset: l.Offset, typ: ft, typed: err == nil, redact: pl.redact.Sensitive(fp.Name)})
	}
	f.fields, f.size, f.laidOut = fields, size, true
	return fields, size, nil
}

// classOfDef is src.ClassOf, once per (module, TypeDef): a non-generic
// type's class is fixed while its module is loaded.
func (pl *Planner) classOfDef(mid uint64, td uint32) (uint64, error) {
	key := [2]uint64{mid, uint64(td)}
	if cid, ok := pl.defClasses[key]; ok {
		return cid, nil
	}
	cid, err := pl.src.ClassOf(mid, td)
	if err != nil {
		return 0, err
	}
	pl.defClasses[key] = cid
	return cid, nil
}
