package planning

import (
	"fmt"
	"strings"

	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/values"
	"github.com/clrotel/clrotel/values/typerender"
)

// maxParents bounds the parent chain walked for a class's fields.
const maxParents = 32

// entry builds (once) what the planner knows of class cid, and publishes
// its object plan. Called with mu held.
func (pl *Planner) entry(cid uint64, depth int) (*classEntry, error) {
	if e := pl.classes[cid]; e != nil {
		return e, nil
	}
	if depth > maxPlanDepth || pl.building[cid] {
		return nil, fmt.Errorf("class %#x: nested too deep", cid)
	}
	pl.building[cid] = true
	defer delete(pl.building, cid)

	c, err := pl.class(cid)
	if err != nil {
		return nil, err
	}
	name := pl.src.ClassName(cid)
	e := &classEntry{info: values.ClassInfo{Name: name}}
	switch {
	case c.IsArray:
		pl.arrayPlan(e, cid, c, depth)
	case name == "String":
		e.obj = &Class{ID: cid, Shape: ShapeString}
	default:
		if err := pl.layoutPlan(e, cid, c, depth); err != nil {
			return nil, err
		}
	}
	if e.obj != nil && pl.sink != nil {
		if err := pl.sink.Publish(e.obj); err != nil {
			pl.log.Warnf("class plan table full: values of %s are not read", name)
		}
	}
	pl.classes[cid] = e
	pl.gen.Add(1)
	return e, nil
}

// arrayPlan plans an array class: its elements' kind and size, and the
// plan of a value-type element.
func (pl *Planner) arrayPlan(e *classEntry, cid uint64, c naming.Class, depth int) {
	var s slot
	var elemSize uint32 = 8
	var elemName string
	if c.ElemCls != 0 {
		elemName = pl.src.ClassName(c.ElemCls)
	}
	switch k := elemKind(c.Elem); {
	case k != values.KindSkip && k != values.KindRef:
		s = slot{kind: k}
		elemSize = uint32(k.Size())
		if elemName == "" || elemName == "?" {
			elemName = naming.FormatType(naming.Type{Kind: c.Elem}, nil, naming.Generics{})
		}
	case k == values.KindRef:
		s = slot{kind: values.KindRef}
	case c.Elem == naming.ElemValueType:
		s = pl.slotOf(c.ElemCls, depth+1)
		if ee := pl.classes[c.ElemCls]; ee != nil {
			elemSize = ee.size
		}
	}
	e.info.Elem = elemName
	p := &Class{ID: cid, Shape: ShapeArray, ElemKind: s.kind, Elem: s.cls, ElemSize: elemSize, Rank: c.Rank}
	if p.Rank == 0 {
		p.Rank = 1
	}
	if s.kind == values.KindSkip || elemSize == 0 {
		p.ElemKind = values.KindSkip
		p.ElemSize = 8
	}
	e.obj = p
}

// fieldRow is one instance field of a class, parents' first.
type fieldRow struct {
	name   string
	offset uint32
	slot   slot
	redact bool
}

// layoutPlan plans a class or value type from its layout and its
// parents' (up to System.Object, System.ValueType or System.Enum).
func (pl *Planner) layoutPlan(e *classEntry, cid uint64, c naming.Class, depth int) error {
	type link struct {
		cid uint64
		c   naming.Class
	}
	chain := []link{{cid, c}}
	for cur := c; cur.Parent != 0 && len(chain) < maxParents; {
		pc, err := pl.class(cur.Parent)
		if err != nil {
			break
		}
		pname := pl.src.ClassName(cur.Parent)
		switch pname {
		case "System.ValueType":
			e.valueType = true
		case "System.Enum":
			e.valueType = true
			e.info.Enum = &values.Enum{Name: e.info.Name, Values: map[uint64]string{}}
		}
		if pname == "Object" || pname == "System.ValueType" || pname == "System.Enum" {
			break
		}
		chain = append(chain, link{cur.Parent, pc})
		cur = pc
	}
	if strings.HasPrefix(e.info.Name, "System.Nullable<") {
		e.info.Nullable = true
	}
	if k, ok := primitiveKinds[e.info.Name]; ok && e.valueType {
		e.primKind = k
		e.info.Primitive = true
	}

	var rows []fieldRow
	var size uint32
	for i := len(chain) - 1; i >= 0; i-- {
		l := chain[i]
		fields, sz, err := pl.ownFields(l.cid, l.c)
		if err != nil {
			return err
		}
		size = sz
		for _, f := range fields {
			var s slot
			if f.typed {
				s = pl.typeSlot(f.typ, l.c.Module, l.c.TypeArgs, nil, depth)
			}
			if s.kind == values.KindTypeArg {
				s = slot{} // a class's own type arguments are always known
			}
			rows = append(rows, fieldRow{name: f.name, offset: f.offset, slot: s, redact: f.redact})
		}
	}
	if e.info.Enum != nil {
		pl.enumNames(e, c)
		for _, r := range rows {
			e.enumKind = r.slot.kind // value__
		}
	}
	e.size = size
	plan := &Class{ID: cid, Shape: ShapeObject, Fields: make([]Value, len(rows))}
	e.info.Fields = make([]values.Field, len(rows))
	for i, r := range rows {
		plan.Fields[i] = Value{Kind: r.slot.kind, Offset: r.offset, Class: r.slot.cls, Redact: r.redact}
		e.info.Fields[i] = values.Field{Name: displayFieldName(r.name), Enum: r.slot.enum}
	}
	boundCollections(e.info.Name, rows, plan.Fields)
	nodeLinks(plan, e.info, rows)
	if !e.valueType {
		plan.View = objectView(e.info)
		e.obj = plan
		return nil
	}
	plan.Shape = ShapeStruct
	plan.ElemSize = size
	e.strct = plan
	if off, ok := pl.src.BoxOffset(cid); ok {
		e.obj = &Class{ID: cid, Shape: ShapeBoxed, BoxOffset: off, Elem: plan}
	}
	return nil
}

// enumNames reads an enum's members (value -> name, the first of equal
// values) and whether it is [Flags].
func (pl *Planner) enumNames(e *classEntry, c naming.Class) {
	toks, err := pl.src.Fields(c.Module, c.Token)
	if err != nil {
		return
	}
	e.info.Enum.Flags = pl.src.HasAttribute(c.Module, c.Token, "System.FlagsAttribute")
	for _, t := range toks {
		v, attrs, ok := pl.src.Constant(c.Module, t)
		if !ok || attrs&fieldLiteral == 0 {
			continue
		}
		if fp, err := pl.src.Field(c.Module, t); err == nil {
			if _, dup := e.info.Enum.Values[v]; !dup {
				e.info.Enum.Values[v] = fp.Name
			}
		}
	}
}

// ownerIsValueType tells from metadata alone whether a method's owning
// type is a struct: shared generic code has no class to ask the runtime
// about. Called with mu held.
func (pl *Planner) ownerIsValueType(m *naming.Method) bool {
	key := [2]uint64{m.ModuleID, uint64(m.OwnerToken)}
	if v, ok := pl.valueTypes[key]; ok {
		return v
	}
	v := ValueType(pl.src, m.ModuleID, m.OwnerToken)
	pl.valueTypes[key] = v
	return v
}

// displayFieldName shows an auto-property's backing field by the
// property's name: <Name>k__BackingField -> Name.
func displayFieldName(n string) string {
	if strings.HasPrefix(n, "<") {
		if i := strings.Index(n, ">k__BackingField"); i > 0 {
			return n[1:i]
		}
	}
	return n
}

// objectView is how package values shows an object of the class described
// by ci (its name and fields' names).
func objectView(ci values.ClassInfo) View {
	switch {
	case typerender.HasRendering(ci):
		return ViewRendered
	case ci.Terse():
		return ViewTerse
	}
	return ViewPlain
}
