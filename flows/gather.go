package flows

import (
	"fmt"
	"strings"
)

// TypeKind is a kind of compiler-generated type the profiler gives fields
// of its own as its module loads (profiler/async.h ASYNC_KIND_*).
type TypeKind int

const (
	StateMachineType TypeKind = iota // an async method's state machine
	ClosureType                      // a class holding a lambda's captures
	IteratorType                     // an iterator method's enumerator
	typeKinds
)

// Added lists, per TypeKind, the tokens of the fields the profiler gave a
// type as a type of that kind, in order; nil when it gave none.
type Added [typeKinds][]uint32

// MaxFlowFields bounds the added fields whose offsets the hooks read.
const MaxFlowFields = 6

// Method is what Gather knows of a method before reading its module.
type Method struct {
	Name    string // its own name: MoveNext, .ctor, ...
	Display string // how errors name it
	Token   uint32 // its MethodDef
	Owner   uint32 // its type's TypeDef
	ClassID uint64 // its type's class, 0 when the runtime did not say
	HasThis bool
	// Builder: a task builder's SetResult or SetException (the profiler
	// found them as CoreLib loaded).
	Builder bool
	// ReturnType is the method's return type as naming formats it: an
	// iterator method returns an enumerable or an enumerator.
	ReturnType string
}

// The custom attributes that name the state machine of an async method
// and of an iterator method.
const (
	AsyncStateMachineAttribute    = "System.Runtime.CompilerServices.AsyncStateMachineAttribute"
	IteratorStateMachineAttribute = "System.Runtime.CompilerServices.IteratorStateMachineAttribute"
)

// Module is what Gather reads of a method's module and of the runtime's
// layout of its types.
type Module interface {
	// AttributeBlob returns the value blob of the custom attribute named
	// attr on the MethodDef token, or false when it has none.
	AttributeBlob(token uint32, attr string) ([]byte, bool)
	// FindNested finds a TypeDef by its reflection name, nested types
	// joined by '+' (Acme.Handler+<Handle>d__3).
	FindNested(name string) (uint32, bool)
	// Added returns the fields the profiler gave the TypeDef td.
	Added(td uint32) (Added, error)
	// EnclosingClass returns the TypeDef td is nested in (0: none).
	EnclosingClass(td uint32) uint32
	// GenericParams returns the generic parameters of the TypeDef owner.
	GenericParams(owner uint32) ([]string, error)
	// ClassOf returns the class of the TypeDef td, loading it.
	ClassOf(td uint32) (uint64, error)
	// Layout returns the runtime's layout of class cid: its own instance
	// fields and their offsets from `this`.
	Layout(cid uint64) ([]FieldAt, error)
	// IteratorTracked reports whether an iterator method naming the
	// enumerator td as its state machine is traced (Roles.Iterator).
	IteratorTracked(td uint32) bool
	// ILBody returns the MethodDef's body (header and IL), or false.
	ILBody(token uint32) ([]byte, bool)
	// ConstructedType returns the TypeDef of this module whose
	// constructor the MethodDef or MemberRef ctor is (a MemberRef's parent
	// a TypeDef, or a TypeSpec instantiating one), or false.
	ConstructedType(ctor uint32) (uint32, bool)
	// SealedClass reports whether the TypeDef td is a sealed class (no
	// struct): the `this` of its instance methods is an object of exactly
	// its instantiation.
	SealedClass(td uint32) bool
}

// Roles is what Gather found of a method.
type Roles struct {
	Role Role
	// Offsets are the added fields' offsets from `this`, when Decide says
	// the hooks need them and they are the same for every call.
	Offsets [MaxFlowFields]uint16
	// Shared: the method is generic code shared by instantiations whose
	// layouts differ; the hooks find the added fields (Fields, their
	// FieldDefs in order) in the layout of each call's exact class.
	Shared bool
	Fields [MaxFlowFields]uint32
	// ObjectThis, when Shared: the method's type is a sealed class, so
	// the call's exact class is its `this` object's, which the hooks ask
	// of the object instead of the frame (a struct's exact type is known
	// only from the frame's generic context).
	ObjectThis bool
	// Closure is the closure class a ClosureCtor or ClosureBody belongs
	// to, with the offsets of its fields: work queued with it is told by
	// its class.
	Closure uint64
	// Loop: the method is an async state machine's step, which carries
	// the serving rule's fields (profiler/serving.h); an iterator's does
	// not.
	Loop bool
	// Owner is the TypeDef of the async method's type (Kickoff) or of the
	// type enclosing the state machine (MoveNext): the hooks tell a
	// method's own steps by it.
	Owner uint32
	// Iterator is the enumerator TypeDef of a traced iterator method:
	// its methods are steps of the method's span (Module.IteratorTracked
	// answers true for it from now on).
	Iterator uint32
}

// Gather reads from the method's module the facts Decide needs, decides,
// and returns what the hooks need. An error with non-zero Roles says what
// was left out (the fields' offsets): the roles stand.
func Gather(m Method, mod Module) (Roles, error) {
	var out Roles
	facts := Facts{Name: m.Name, HasThis: m.HasThis, Builder: m.Builder}
	if facts.Builder {
		out.Role, _ = Decide(facts)
		return out, nil
	}
	// An async method, or an iterator method (one span per enumeration),
	// names its state machine in an attribute.
	named := false
	for _, a := range []struct {
		attr string
		kind TypeKind
	}{{AsyncStateMachineAttribute, StateMachineType}, {IteratorStateMachineAttribute, IteratorType}} {
		blob, ok := mod.AttributeBlob(m.Token, a.attr)
		if !ok {
			continue
		}
		sm, err := TypeArgument(blob)
		if err != nil {
			return Roles{}, fmt.Errorf("%s: state machine attribute: %w", m.Display, err)
		}
		td, ok := mod.FindNested(sm)
		if !ok {
			return Roles{}, fmt.Errorf("%s: state machine %q not found", m.Display, sm)
		}
		// A state machine without the fields (a module with native code)
		// does not carry the span.
		if added, _ := mod.Added(td); added[a.kind] != nil {
			facts.StateMachineTracked = true
			if a.kind == IteratorType {
				out.Iterator = td
			}
		}
		named = true
		break
	}
	// An iterator method no attribute names (mcs's) is told by what it
	// constructs: an enumerator nested in its own type.
	if !named && Enumerates(m.ReturnType) {
		if td, ok := constructedIterator(m, mod); ok {
			facts.StateMachineTracked = true
			out.Iterator = td
		}
	}
	added, _ := mod.Added(m.Owner)
	var own []uint32
	switch {
	case added[ClosureType] != nil:
		own, facts.OwnerLinkFields = added[ClosureType], true
	case added[StateMachineType] != nil:
		own, facts.OwnerFlowFields = added[StateMachineType], true
	case added[IteratorType] != nil:
		own, facts.OwnerIterFields = added[IteratorType], true
		facts.IterTracked = mod.IteratorTracked(m.Owner)
	}
	var off [MaxFlowFields]uint16
	var cid uint64
	var offErr error
	if own != nil && m.HasThis {
		var shared bool
		if shared, offErr = sharedCode(m, mod, own); shared {
			facts.SharedLayout = true
		} else if offErr == nil {
			off, cid, offErr = offsets(m, mod, own)
			facts.ExactLayout = offErr == nil
		}
	}
	role, needOffsets := Decide(facts)
	out.Role = role
	switch {
	case needOffsets && facts.SharedLayout:
		out.Shared = true
		out.ObjectThis = mod.SealedClass(m.Owner)
		copy(out.Fields[:], own)
	case needOffsets:
		out.Offsets = off
	case facts.SharedLayout && facts.OwnerLinkFields:
		offErr = fmt.Errorf("%s: shared generic code: work queued with its closures is not linked", m.Display)
	}
	if role&(ClosureCtor|ClosureBody) != 0 {
		out.Closure = cid
	}
	out.Loop = role&MoveNext != 0 && facts.OwnerFlowFields
	switch {
	case role&Kickoff != 0:
		out.Owner = m.Owner
	case role&MoveNext != 0:
		out.Owner = mod.EnclosingClass(m.Owner)
	}
	return out, offErr
}

// sharedCode reports whether m is generic code shared by instantiations
// (the runtime gave no class for it, and its type has generic
// parameters). Their layouts differ: a type argument that is a struct
// holding references (Pair<__Canon> shared by Pair<string> and Pair<Uri>)
// is laid out after the Int64 fields, a reference before them, so no one
// offset is right for every call, and a field written at the wrong one
// would overwrite the app's state (generator seed 104).
func sharedCode(m Method, mod Module, toks []uint32) (bool, error) {
	if m.ClassID != 0 {
		return false, nil
	}
	gp, err := mod.GenericParams(m.Owner)
	if err != nil {
		return false, fmt.Errorf("%s: generic parameters: %w", m.Display, err)
	}
	if len(gp) > 0 && len(toks) > MaxFlowFields {
		return false, fmt.Errorf("%s: %d added fields, at most %d are read", m.Display, len(toks), MaxFlowFields)
	}
	return len(gp) > 0, nil
}

// offsets finds the added fields toks in the layout of m's class.
func offsets(m Method, mod Module, toks []uint32) ([MaxFlowFields]uint16, uint64, error) {
	if len(toks) > MaxFlowFields {
		return [MaxFlowFields]uint16{}, 0, fmt.Errorf("%s: %d added fields, at most %d are read", m.Display, len(toks), MaxFlowFields)
	}
	off, cid, err := fieldOffsets(mod, m.ClassID, m.Owner, toks)
	if err != nil {
		return off, 0, fmt.Errorf("%s: %w", m.Display, err)
	}
	return off, cid, nil
}

// constructedIterator finds the enumerator an iterator method constructs:
// a type nested in the method's own, given the iterator's fields (a
// compiler-generated class implementing IEnumerator), whose constructor
// its body calls with newobj.
func constructedIterator(m Method, mod Module) (uint32, bool) {
	body, ok := mod.ILBody(m.Token)
	if !ok {
		return 0, false
	}
	ctors, err := NewObjTokens(body)
	if err != nil {
		return 0, false
	}
	for _, c := range ctors {
		td, ok := mod.ConstructedType(c)
		if !ok || mod.EnclosingClass(td) != m.Owner {
			continue
		}
		if added, _ := mod.Added(td); added[IteratorType] != nil {
			return td, true
		}
	}
	return 0, false
}

// Enumerates reports whether a return type, as naming formats it, is one
// an iterator method may have: IEnumerable, IEnumerator or their generic
// forms.
func Enumerates(returnType string) bool {
	t := returnType
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	t = strings.TrimPrefix(strings.TrimPrefix(t, "System.Collections."), "Generic.")
	return t == "IEnumerable" || t == "IEnumerator"
}

// FieldAt is one instance field of a class layout.
type FieldAt struct{ Token, Offset uint32 }

// fieldOffsets returns the offsets from `this` of the fields toks in the
// runtime's layout of class cid (0: the class of the TypeDef owner,
// loaded), and that class. The hooks keep offsets in 16 bits: a field
// further out is not found.
func fieldOffsets(mod Module, cid uint64, owner uint32, toks []uint32) ([MaxFlowFields]uint16, uint64, error) {
	var off [MaxFlowFields]uint16
	if cid == 0 {
		c, err := mod.ClassOf(owner)
		if err != nil {
			return off, 0, err
		}
		cid = c
	}
	layout, err := mod.Layout(cid)
	if err != nil {
		return off, 0, err
	}
	found := 0
	for _, fl := range layout {
		for i, t := range toks {
			if fl.Token == t && fl.Offset < 1<<16 {
				off[i] = uint16(fl.Offset)
				found++
			}
		}
	}
	if found != len(toks) {
		return off, 0, fmt.Errorf("%d of the type's %d added fields in its layout", found, len(toks))
	}
	return off, cid, nil
}
