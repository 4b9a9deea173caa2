package planning

import (
	"fmt"
	"strconv"

	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/values"
)

// slot is how one value is read: its kind and, for structs, the plan.
type slot struct {
	kind values.Kind
	cls  *Class
	enum *values.Enum
	// KindTypeArg: which type parameter (of the method when methodVar).
	typeArg   uint32
	methodVar bool
}

// Depth bounds: value types nested inline in value types, and classes
// planned ahead through declared types.
const (
	maxPlanDepth      = 6
	maxProactiveDepth = 3
)

// primitiveKinds: the primitive value types by their span names.
var primitiveKinds = map[string]values.Kind{
	"Boolean": values.KindBool, "Char": values.KindChar, "SByte": values.KindI1, "Byte": values.KindU1,
	"Int16": values.KindI2, "UInt16": values.KindU2, "Int32": values.KindI4, "UInt32": values.KindU4,
	"Int64": values.KindI8, "UInt64": values.KindU8, "Single": values.KindR4, "Double": values.KindR8,
	"IntPtr": values.KindI, "UIntPtr": values.KindU,
}

// primitiveTypeNames: the primitive element types by their System names.
var primitiveTypeNames = map[naming.ElementType]string{
	naming.ElemBoolean: "Boolean", naming.ElemChar: "Char", naming.ElemI1: "SByte", naming.ElemU1: "Byte",
	naming.ElemI2: "Int16", naming.ElemU2: "UInt16", naming.ElemI4: "Int32", naming.ElemU4: "UInt32",
	naming.ElemI8: "Int64", naming.ElemU8: "UInt64", naming.ElemR4: "Single", naming.ElemR8: "Double",
	naming.ElemI: "IntPtr", naming.ElemU: "UIntPtr",
}

// elemKind is how a value of a signature element type is read, KindSkip
// for the types whose reading needs more than the element type.
func elemKind(e naming.ElementType) values.Kind {
	switch e {
	case naming.ElemBoolean:
		return values.KindBool
	case naming.ElemChar:
		return values.KindChar
	case naming.ElemI1:
		return values.KindI1
	case naming.ElemU1:
		return values.KindU1
	case naming.ElemI2:
		return values.KindI2
	case naming.ElemU2:
		return values.KindU2
	case naming.ElemI4:
		return values.KindI4
	case naming.ElemU4:
		return values.KindU4
	case naming.ElemI8:
		return values.KindI8
	case naming.ElemU8:
		return values.KindU8
	case naming.ElemR4:
		return values.KindR4
	case naming.ElemR8:
		return values.KindR8
	case naming.ElemI:
		return values.KindI
	case naming.ElemU:
		return values.KindU
	case naming.ElemString, naming.ElemClass, naming.ElemObject, naming.ElemSZArray, naming.ElemArray:
		return values.KindRef
	case naming.ElemPtr, naming.ElemFnPtr:
		return values.KindPtr
	}
	return values.KindSkip
}

// slotOf says how a value of runtime class cid is stored in a slot.
func (pl *Planner) slotOf(cid uint64, depth int) slot {
	if cid == 0 {
		return slot{}
	}
	e, err := pl.entry(cid, depth)
	if err != nil {
		return slot{}
	}
	switch {
	case !e.valueType:
		return slot{kind: values.KindRef}
	case e.primKind != 0:
		return slot{kind: e.primKind}
	case e.enumKind != 0:
		return slot{kind: e.enumKind, enum: e.info.Enum}
	case e.strct != nil:
		return slot{kind: values.KindStruct, cls: e.strct}
	}
	return slot{}
}

// typeArgs picks the runtime type arguments a VAR or MVAR indexes.
func typeArgs(kind naming.ElementType, typeArgs, methodArgs []uint64) []uint64 {
	if kind == naming.ElemMVar {
		return methodArgs
	}
	return typeArgs
}

// typeSlot says how a value of signature type t, in module mid, is read.
// typeArgs and methodArgs are the runtime ClassIDs for VAR and MVAR.
func (pl *Planner) typeSlot(t naming.Type, mid uint64, targs, margs []uint64, depth int) slot {
	if t.Kind == naming.ElemSZArray && t.Elem != nil && depth < maxProactiveDepth {
		pl.planArrayElem(*t.Elem, mid, targs, margs, depth)
	}
	if k := elemKind(t.Kind); k != values.KindSkip && t.Kind != naming.ElemClass {
		return slot{kind: k}
	}
	switch t.Kind {
	case naming.ElemGenericInst:
		if t.Elem != nil && t.Elem.Kind == naming.ElemClass {
			// A generic class (List<Item>): planned now like other declared
			// classes, so that the first call already reads it.
			if pl.jitThread && depth < maxProactiveDepth {
				if cid, err := pl.classOfType(t, mid, targs, margs, depth); err == nil {
					_, _ = pl.entry(cid, depth+1)
				}
			}
			return slot{kind: values.KindRef}
		}
		// A generic value type (Nullable<Int32>, KeyValuePair<K, V>) is read
		// as its exact instantiation, which may never have been loaded
		// (shared code lays KeyValuePair<String, Int32> out as
		// KeyValuePair<__Canon, Int32>), and asking for it loads it. The
		// runtime can load a type only on a thread it runs managed code
		// on: off the JIT's thread such a value is not read.
		if !pl.jitThread {
			return slot{}
		}
		cid, err := pl.classOfType(t, mid, targs, margs, depth)
		if err != nil {
			pl.log.Debugf("generic value type: %v", err)
			return slot{}
		}
		return pl.slotOf(cid, depth+1)
	case naming.ElemClass:
		// The declared class is planned now, so that the first call
		// already reads it; objects of derived classes get plans when
		// first met. Only at JIT time: the class may not be loaded yet.
		if pl.jitThread && depth < maxProactiveDepth {
			if cid, err := pl.resolveToken(mid, t.Token); err == nil {
				_, _ = pl.entry(cid, depth+1)
			}
		}
		return slot{kind: values.KindRef}
	case naming.ElemValueType:
		cid, err := pl.resolveToken(mid, t.Token)
		if err != nil {
			pl.log.Debugf("value type %#x: %v", t.Token, err)
			return slot{}
		}
		return pl.slotOf(cid, depth+1)
	case naming.ElemVar, naming.ElemMVar:
		args := typeArgs(t.Kind, targs, margs)
		if int(t.Index) >= len(args) {
			// Shared code whose instantiation is not known here: a type
			// parameter may stand for a reference type (shared) or for a
			// value type fixed in this instantiation (Pair<Int32, __Canon>).
			// The frame tells, per call.
			return slot{kind: values.KindTypeArg, typeArg: t.Index, methodVar: t.Kind == naming.ElemMVar}
		}
		if pl.src.ClassName(args[t.Index]) == "System.__Canon" {
			return slot{kind: values.KindRef}
		}
		return pl.slotOf(args[t.Index], depth+1)
	}
	return slot{}
}

// planArrayElem plans the value type an array field or parameter holds
// (List<KeyValuePair<K, V>>._items, Dictionary's Entry[]), so that the
// hooks can read such an array the first time they meet it.
func (pl *Planner) planArrayElem(e naming.Type, mid uint64, targs, margs []uint64, depth int) {
	switch e.Kind {
	case naming.ElemVar, naming.ElemMVar:
		args := typeArgs(e.Kind, targs, margs)
		if int(e.Index) < len(args) && pl.src.ClassName(args[e.Index]) != "System.__Canon" {
			_, _ = pl.entry(args[e.Index], depth+1)
		}
	case naming.ElemGenericInst, naming.ElemValueType:
		if !pl.jitThread { // resolving may load the type
			return
		}
		if e.Kind == naming.ElemGenericInst && (e.Elem == nil || e.Elem.Kind != naming.ElemValueType) {
			return
		}
		if cid, err := pl.classOfType(e, mid, targs, margs, depth); err == nil {
			_, _ = pl.entry(cid, depth+1)
		}
	}
}

// instanceKey is the key of pl.instances: a generic TypeDef of a module
// and the classes of its type arguments, as decimal words.
func instanceKey(mod uint64, td uint32, ids []uint64) string {
	b := make([]byte, 0, 24+21*len(ids))
	b = strconv.AppendUint(b, mod, 10)
	b = append(b, ' ')
	b = strconv.AppendUint(b, uint64(td), 10)
	for _, id := range ids {
		b = append(b, ' ')
		b = strconv.AppendUint(b, id, 10)
	}
	return string(b)
}

// classOfType finds the runtime class of a signature type (the type
// arguments of a generic instantiation among them).
func (pl *Planner) classOfType(t naming.Type, mid uint64, targs, margs []uint64, depth int) (uint64, error) {
	if depth > maxPlanDepth {
		return 0, fmt.Errorf("type nested too deep")
	}
	if name, ok := primitiveTypeNames[t.Kind]; ok {
		return pl.findClass([]string{"System." + name})
	}
	switch t.Kind {
	case naming.ElemString:
		return pl.findClass([]string{"System.String"})
	case naming.ElemObject:
		return pl.findClass([]string{"System.Object"})
	case naming.ElemClass, naming.ElemValueType:
		return pl.resolveToken(mid, t.Token)
	case naming.ElemVar, naming.ElemMVar:
		args := typeArgs(t.Kind, targs, margs)
		if int(t.Index) < len(args) {
			return args[t.Index], nil
		}
	case naming.ElemGenericInst:
		if t.Elem == nil || len(t.Args) == 0 {
			break
		}
		defMod, td, err := pl.resolveDef(mid, t.Elem.Token)
		if err != nil {
			return 0, err
		}
		ids := make([]uint64, len(t.Args))
		for i, a := range t.Args {
			id, err := pl.classOfType(a, mid, targs, margs, depth+1)
			if err != nil {
				return 0, err
			}
			ids[i] = id
		}
		key := instanceKey(defMod, td, ids)
		if c, ok := pl.instances[key]; ok {
			return c, nil
		}
		cid, err := pl.src.Instantiate(defMod, td, ids)
		if err != nil {
			return 0, err
		}
		if cid != 0 {
			pl.instances[key] = cid
		}
		return cid, nil
	}
	return 0, fmt.Errorf("no runtime class for %v", t.Kind)
}
