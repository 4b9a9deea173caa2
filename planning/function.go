package planning

import (
	"fmt"
	"strings"

	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/values"
)

// Function builds the plan of a traced method. It is called on the
// runtime thread that JIT-compiles m, the one thread where the classes its
// signature names may be loaded.
func (pl *Planner) Function(m *naming.Method) *Function {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.jitThread = true
	defer func() { pl.jitThread = false }()
	sig := m.Sig
	fp := &Function{Args: make([]Value, len(sig.Params)), Enter: make([]values.Slot, 0, len(sig.Params)+1)}
	if sig.HasThis && !sig.ExplicitThis {
		pl.this(m, fp)
	}
	for i, t := range sig.Params {
		var prm naming.Param
		if i < len(m.Params2) {
			prm = m.Params2[i]
		}
		name := prm.Name
		if name == "" {
			name = fmt.Sprintf("arg%d", i)
		}
		a := &fp.Args[i]
		var s slot
		if t.Kind == naming.ElemByRef && t.Elem != nil {
			if !(prm.Out && !prm.In) { // out parameters hold nothing yet on entry
				inner := pl.typeSlot(*t.Elem, m.ModuleID, m.TypeArgIDs, m.MethodArgIDs, 0)
				if inner.kind != values.KindSkip {
					s = slot{kind: values.KindByRef, cls: inner.cls, enum: inner.enum, typeArg: inner.typeArg, methodVar: inner.methodVar}
					a.ElemKind = inner.kind
				}
			}
		} else {
			s = pl.typeSlot(t, m.ModuleID, m.TypeArgIDs, m.MethodArgIDs, 0)
		}
		a.Kind, a.Class = s.kind, s.cls
		setTypeArg(a, s)
		a.Redact = pl.redact.Sensitive(name) || setterValue(m, i) && pl.redact.Sensitive(m.Name)
		fp.Enter = append(fp.Enter, values.Slot{Key: "dotnet.arg." + name, Enum: s.enum})
	}
	pl.staticsPlan(m, fp)
	if sig.Ret.Kind != naming.ElemVoid && sig.Ret.Kind != naming.ElemByRef {
		pl.ret(m, fp)
	}
	return fp
}

// Completion builds the plan of a task builder's SetResult or
// SetException, whose arguments are the task's outcome: its `this` is not
// read. The builder holds the task, and through it the state machine,
// whose fields may hold the result itself: read first, it would make the
// result a reference back into it (rendered <cycle>), and it is work for
// nothing on every completion.
func (pl *Planner) Completion(m *naming.Method) *Function {
	fp := pl.Function(m)
	fp.This, fp.ThisExact = Value{}, false
	return fp
}

// this plans the `this` of an instance method.
func (pl *Planner) this(m *naming.Method, fp *Function) {
	fp.HasThis = true
	s := slot{kind: values.KindRef}
	// `this` of a value type's method is a managed pointer to it, never an
	// object reference: whether the owner is a struct is read from
	// metadata, so that no failure below can make it one.
	if pl.ownerIsValueType(m) {
		s = slot{} // not read, unless planned below
		if m.ClassID == 0 {
			// Shared code of a generic struct: the exact type is known
			// only from the frame.
			s = slot{kind: values.KindByRef}
			fp.ThisExact = true
		} else if e, err := pl.entry(m.ClassID, 0); err == nil && e.valueType {
			inner := pl.slotOf(m.ClassID, 0)
			s = slot{kind: values.KindByRef, cls: inner.cls}
			fp.This.ElemKind = inner.kind
		}
	} else if m.ClassID != 0 {
		_, _ = pl.entry(m.ClassID, 0) // planned now, so the first call reads it
	}
	if m.Name == ".ctor" {
		// A constructor's `this` on entry is the new object with every
		// field at its default: nothing worth a span attribute.
		s, fp.ThisExact = slot{}, false
	}
	fp.This.Kind, fp.This.Class = s.kind, s.cls
	fp.Enter = append(fp.Enter, values.Slot{Key: "dotnet.this"})
}

// ret plans the return value, unless the runtime would misreport it.
func (pl *Planner) ret(m *naming.Method, fp *Function) {
	s := pl.typeSlot(m.Sig.Ret, m.ModuleID, m.TypeArgIDs, m.MethodArgIDs, 0)
	if pl.oldReturns {
		switch {
		case s.kind == values.KindStruct && s.cls != nil && s.cls.ElemSize <= 16 && (s.cls.ElemSize > 8 || hasFloat(s.cls, 0)):
			s = slot{}
		case s.kind == values.KindTypeArg:
			s = slot{} // it may be such a struct
		}
	}
	if s.kind == values.KindSkip {
		return
	}
	fp.CaptureRet = true
	fp.Ret.Kind, fp.Ret.Class = s.kind, s.cls
	setTypeArg(&fp.Ret, s)
	fp.Ret.Redact = pl.redact.Sensitive(m.Name)
	fp.Return = []values.Slot{{Key: "dotnet.return", Enum: s.enum}}
}

// setTypeArg records which type parameter a KindTypeArg slot (or a by-ref
// to one) stands for.
func setTypeArg(v *Value, s slot) {
	if s.kind != values.KindTypeArg && v.ElemKind != values.KindTypeArg {
		return
	}
	v.Offset = s.typeArg
	if s.methodVar {
		v.MethodVar = true
	}
}

// setterValue reports whether argument i of m is a property setter's value
// (set_ApiToken(String value)), judged by the property's name. Indexers
// (set_Item(key, value)) end with it too.
func setterValue(m *naming.Method, i int) bool {
	return strings.HasPrefix(m.Name, "set_") && i == len(m.Sig.Params)-1
}

// hasFloat reports whether a struct holds a float or double (returned in
// an SSE register on SysV). A plan too deep to tell counts as one.
func hasFloat(p *Class, depth int) bool {
	if p == nil || depth > maxPlanDepth {
		return true
	}
	for _, f := range p.Fields {
		switch f.Kind {
		case values.KindR4, values.KindR8:
			return true
		case values.KindStruct:
			if hasFloat(f.Class, depth+1) {
				return true
			}
		}
	}
	return false
}
