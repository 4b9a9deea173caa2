package main

/*
#include <stdlib.h>
#include "async.h"
#include "capture.h"
#include "clrinfo.h"
#include "queue.h"
*/
import "C"

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf16"
	"unsafe"

	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/naming"
)

// asyncRole is a method's part in async spans (async.c), decided once at
// JIT time from metadata: the kickoff method (AsyncStateMachineAttribute
// naming a state machine that has the profiler's fields), that state
// machine's MoveNext, or a task builder's SetResult/SetException.
type asyncRole struct {
	flags uint32
	owner uint32    // the kickoff's declaring TypeDef
	off   [6]uint16 // MoveNext, closures: the added fields' offsets from `this`
}

var (
	asyncStateMachineAttr    = utf16.Encode([]rune("System.Runtime.CompilerServices.AsyncStateMachineAttribute\x00"))
	iteratorStateMachineAttr = utf16.Encode([]rune("System.Runtime.CompilerServices.IteratorStateMachineAttribute\x00"))
)

// iteratorKey names an iterator's state machine type.
type iteratorKey struct {
	module uint64
	td     uint32
}

// iterators are the iterators' state machines whose iterator method is
// traced as one span per enumeration (its kickoff compiled first: it
// makes the object).
type iterators struct {
	mu  sync.Mutex
	set map[iteratorKey]bool
}

func (it *iterators) add(k iteratorKey) {
	it.mu.Lock()
	defer it.mu.Unlock()
	if it.set == nil {
		it.set = map[iteratorKey]bool{}
	}
	it.set[k] = true
}

func (it *iterators) has(k iteratorKey) bool {
	it.mu.Lock()
	defer it.mu.Unlock()
	return it.set[k]
}

// asyncSpecialMethod tells a builder's SetResult/SetException
// (ASYNC_SPECIAL_BUILDER) or a CoreLib method that queues work
// (ASYNC_SPECIAL_QUEUE) by FunctionID (the module-load scan found them),
// before the method is named; 0 for any other.
func asyncSpecialMethod(fid uint64) int {
	var d C.clr_function_desc
	if C.clr_function_info(C.uintptr_t(fid), &d) != 0 {
		return 0
	}
	return int(C.clr_async_special_method(d.module_id, C.uint32_t(d.token)))
}

func (p *profiler) asyncRoleOf(fid uint64, m *naming.Method) (asyncRole, error) {
	var r asyncRole
	var d C.clr_function_desc
	if hr := C.clr_function_info(C.uintptr_t(fid), &d); hr != 0 {
		return r, hrErr("GetFunctionInfo2", hr)
	}
	facts := flows.Facts{Name: m.Name, HasThis: m.Sig.HasThis,
		Builder: C.clr_async_special_method(d.module_id, C.uint32_t(d.token)) == C.ASYNC_SPECIAL_BUILDER}
	if facts.Builder {
		r.flags = C.FN_ASYNC_COMPLETE
		return r, nil
	}
	mod, err := p.resolver.ModuleInfo(m.ModuleID)
	if err != nil {
		return r, err
	}
	md := mod.Meta.(metadata)
	var blob *C.uint8_t
	var n C.uint32_t
	// An async method, or an iterator method (one span per enumeration),
	// names its state machine in an attribute.
	for _, a := range []struct {
		attr []uint16
		kind int
	}{{asyncStateMachineAttr, kindStateMachine}, {iteratorStateMachineAttr, kindIterator}} {
		if C.md_attribute_blob(md.imp, C.uint32_t(d.token), (*C.uint16_t)(&a.attr[0]), &blob, &n) != 0 {
			continue
		}
		sm, err := flows.TypeArgument(C.GoBytes(unsafe.Pointer(blob), C.int(n)))
		if err != nil {
			return r, fmt.Errorf("%s: state machine attribute: %w", m.SelectName, err)
		}
		td, ok := findNested(md.imp, sm)
		if !ok {
			return r, fmt.Errorf("%s: state machine %q not found", m.SelectName, sm)
		}
		// Without fields (a module with native code): traced as before.
		if toks, _ := md.addedFields(td, a.kind); toks != nil {
			facts.StateMachineTracked = true
			if a.kind == kindIterator {
				p.iterators.add(iteratorKey{m.ModuleID, td})
			}
		}
		break
	}
	added, _ := md.addedAll(m.OwnerToken)
	var own []uint32
	if own = added[kindClosure]; own != nil {
		facts.OwnerLinkFields = true
	} else if own = added[kindStateMachine]; own != nil {
		facts.OwnerFlowFields = true
	} else if own = added[kindIterator]; own != nil {
		facts.OwnerIterFields = true
		facts.IterTracked = p.iterators.has(iteratorKey{m.ModuleID, m.OwnerToken})
	}
	var off [6]uint16
	var cid uint64
	var offErr error
	if own != nil && m.Sig.HasThis {
		off, cid, offErr = p.fieldOffsets(m, md, own)
		facts.ExactLayout = offErr == nil
	}
	role, needOffsets := flows.Decide(facts)
	if needOffsets {
		r.off = off
	}
	if role&(flows.ClosureCtor|flows.ClosureBody) != 0 {
		// queue.c tells a closure by its class.
		var c [C.CLOSURE_FIELDS]C.uint16_t
		for i := range c {
			c[i] = C.uint16_t(off[i])
		}
		if C.clr_closure_class_add(C.uintptr_t(cid), &c[0]) != 0 {
			p.log.Debugf("async: closure class table full: %s not marked when queued with the flow suppressed", m.SelectName)
		}
	}
	for _, x := range []struct {
		role flows.Role
		flag C.uint32_t
	}{{flows.Kickoff, C.FN_ASYNC_KICKOFF}, {flows.MoveNext, C.FN_ASYNC_MOVENEXT}, {flows.ClosureCtor, C.FN_CLOSURE_CTOR}, {flows.ClosureBody, C.FN_CLOSURE_BODY}, {flows.IterEnd, C.FN_ITER_END}} {
		if role&x.role != 0 {
			r.flags |= uint32(x.flag)
		}
	}
	// An async state machine's step also carries the serving rule's
	// fields (async.h); an iterator's does not.
	if role&flows.MoveNext != 0 && facts.OwnerFlowFields {
		r.flags |= C.FN_ASYNC_LOOP
	}
	switch {
	case role&flows.Kickoff != 0:
		r.owner = m.OwnerToken
	case role&flows.MoveNext != 0:
		r.owner = md.EnclosingClass(m.OwnerToken)
	}
	return r, offErr
}

// fieldOffsets finds the added fields toks in the layout of m's class
// (for shared generic code, its canonical instantiation's).
func (p *profiler) fieldOffsets(m *naming.Method, md metadata, toks []uint32) ([6]uint16, uint64, error) {
	var off [6]uint16
	cid := m.ClassID
	if gp, err := md.GenericParams(m.OwnerToken); cid == 0 && (err != nil || len(gp) > 0) {
		// Shared generic code serves instantiations whose layouts differ:
		// a type argument that is a struct holding references
		// (Pair<__Canon> shared by Pair<string> and Pair<Uri>) is laid out
		// after the Int64 fields, a reference before them. No one layout
		// is right for every call, and a field written at the wrong
		// offset would overwrite the app's state (generator seed 104).
		return off, 0, fmt.Errorf("%s: shared generic code (async methods' spans end with the call; closures' work is not linked)", m.SelectName)
	}
	if cid == 0 {
		var c C.uintptr_t
		if hr := C.clr_class_from_token(C.uintptr_t(m.ModuleID), C.uint32_t(m.OwnerToken), &c); hr != 0 || c == 0 {
			return off, 0, fmt.Errorf("%s: no class for its type: HRESULT %#x", m.SelectName, uint32(hr))
		}
		cid = uint64(c)
	}
	layout, _, err := classLayout(cid)
	if err != nil {
		return off, 0, err
	}
	found := 0
	for _, f := range layout {
		for i, t := range toks {
			if uint32(f.token) == t && f.offset < 1<<16 {
				off[i] = uint16(f.offset)
				found++
			}
		}
	}
	if found != len(toks) {
		return off, 0, fmt.Errorf("%s: %d of the type's %d added fields in its layout", m.SelectName, found, len(toks))
	}
	return off, cid, nil
}

// The kinds of types async.c gives fields (async.h ASYNC_KIND_*).
const (
	kindStateMachine = int(C.ASYNC_KIND_STATE_MACHINE)
	kindClosure      = int(C.ASYNC_KIND_CLOSURE)
	kindIterator     = int(C.ASYNC_KIND_ITERATOR)
)

// scanAdded returns, for each kind of type (async.h ASYNC_KIND_*), the
// tokens of the fields async.c gave td as a type of that kind, in order,
// or nil: one enumeration of td's fields answers every kind.
func (m metadata) scanAdded(td uint32) (addedByKind, error) {
	var added addedByKind
	all, err := enumAll("EnumFields", 64, func(toks *C.uint32_t, capacity C.uint32_t, count, total *C.uint32_t) C.int {
		return C.md_enum_fields(m.imp, C.uint32_t(td), toks, capacity, count, total)
	})
	if err != nil {
		return added, err
	}
	var found [len(added)]int
	for kind := range added {
		added[kind] = make([]uint32, int(C.clr_async_field_count(C.int(kind))))
	}
	for _, fd := range all {
		name, _, _, err := m.fieldProps(uint32(fd))
		if err != nil || !strings.HasPrefix(name, "<clrotel>") {
			continue
		}
		w := utf16.Encode([]rune(name))
		if len(w) == 0 {
			continue
		}
		for kind := range added {
			if i := C.clr_async_field_index((*C.uint16_t)(&w[0]), C.uint32_t(len(w)), C.int(kind)); i >= 0 {
				added[kind][i] = uint32(fd)
				found[kind]++
			}
		}
	}
	for kind := range added {
		if found[kind] != len(added[kind]) {
			added[kind] = nil
		}
	}
	return added, nil
}

// findNested finds a TypeDef by its reflection name, nested types joined
// by '+' (Acme.Handler+<Handle>d__3).
func findNested(imp unsafe.Pointer, name string) (uint32, bool) {
	var td C.uint32_t
	for _, part := range strings.Split(name, "+") {
		w := utf16.Encode([]rune(part + "\x00"))
		if C.md_find_typedef(imp, (*C.uint16_t)(&w[0]), td, &td) != 0 {
			return 0, false
		}
	}
	return uint32(td), true
}
