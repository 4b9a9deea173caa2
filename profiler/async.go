package main

/*
#include <stdlib.h>
#include "async.h"
#include "capture.h"
#include "clrinfo.h"
*/
import "C"

import (
	"fmt"
	"strings"
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
	off   [5]uint16 // MoveNext, closures: the added fields' offsets from `this`
}

var asyncStateMachineAttr = utf16.Encode([]rune("System.Runtime.CompilerServices.AsyncStateMachineAttribute\x00"))

// asyncBuilderMethod tells a builder's SetResult/SetException by FunctionID
// (the module-load scan found them), before the method is named.
func asyncBuilderMethod(fid uint64) bool {
	var d C.clr_function_desc
	return C.clr_function_info(C.uintptr_t(fid), &d) == 0 && C.clr_async_builder_method(d.module_id, C.uint32_t(d.token)) != 0
}

func (p *profiler) asyncRoleOf(fid uint64, m *naming.Method) (asyncRole, error) {
	var r asyncRole
	var d C.clr_function_desc
	if hr := C.clr_function_info(C.uintptr_t(fid), &d); hr != 0 {
		return r, hrErr("GetFunctionInfo2", hr)
	}
	facts := flows.Facts{Name: m.Name, HasThis: m.Sig.HasThis,
		Builder: C.clr_async_builder_method(d.module_id, C.uint32_t(d.token)) != 0}
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
	if C.md_attribute_blob(md.imp, C.uint32_t(d.token), (*C.uint16_t)(&asyncStateMachineAttr[0]), &blob, &n) == 0 {
		sm, err := flows.TypeArgument(C.GoBytes(unsafe.Pointer(blob), C.int(n)))
		if err != nil {
			return r, fmt.Errorf("%s: AsyncStateMachineAttribute: %w", m.SelectName, err)
		}
		td, ok := findNested(md.imp, sm)
		if !ok {
			return r, fmt.Errorf("%s: state machine %q not found", m.SelectName, sm)
		}
		// Without fields (a module with native code): traced as before.
		toks, _ := md.asyncFields(td)
		facts.StateMachineTracked = toks != nil
	}
	var own []uint32
	if own, _ = md.closureFields(m.OwnerToken); own != nil {
		facts.OwnerLinkFields = true
	} else if own, _ = md.asyncFields(m.OwnerToken); own != nil {
		facts.OwnerFlowFields = true
	}
	var off [5]uint16
	var offErr error
	if own != nil && m.Sig.HasThis {
		off, offErr = p.fieldOffsets(m, md, own)
		facts.ExactLayout = offErr == nil
	}
	role, needOffsets := flows.Decide(facts)
	if needOffsets {
		r.off = off
	}
	for _, x := range []struct {
		role flows.Role
		flag C.uint32_t
	}{{flows.Kickoff, C.FN_ASYNC_KICKOFF}, {flows.MoveNext, C.FN_ASYNC_MOVENEXT}, {flows.ClosureCtor, C.FN_CLOSURE_CTOR}, {flows.ClosureBody, C.FN_CLOSURE_BODY}} {
		if role&x.role != 0 {
			r.flags |= uint32(x.flag)
		}
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
func (p *profiler) fieldOffsets(m *naming.Method, md metadata, toks []uint32) ([5]uint16, error) {
	var off [5]uint16
	cid := m.ClassID
	if gp, err := md.GenericParams(m.OwnerToken); cid == 0 && (err != nil || len(gp) > 0) {
		// Shared generic code serves instantiations whose layouts differ:
		// a type argument that is a struct holding references
		// (Pair<__Canon> shared by Pair<string> and Pair<Uri>) is laid out
		// after the Int64 fields, a reference before them. No one layout
		// is right for every call, and a field written at the wrong
		// offset would overwrite the app's state (generator seed 104).
		return off, fmt.Errorf("%s: shared generic code (async methods' spans end with the call; closures' work is not linked)", m.SelectName)
	}
	if cid == 0 {
		var c C.uintptr_t
		if hr := C.clr_class_from_token(C.uintptr_t(m.ModuleID), C.uint32_t(m.OwnerToken), &c); hr != 0 || c == 0 {
			return off, fmt.Errorf("%s: no class for its type: HRESULT %#x", m.SelectName, uint32(hr))
		}
		cid = uint64(c)
	}
	layout, _, err := classLayout(cid)
	if err != nil {
		return off, err
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
		return off, fmt.Errorf("%s: %d of the type's %d added fields in its layout", m.SelectName, found, len(toks))
	}
	return off, nil
}

// asyncFields returns the tokens of the fields async.c gave a state
// machine, in order, or nil when it has none.
func asyncFields(imp unsafe.Pointer, td uint32) ([]uint32, error) { return addedFields(imp, td, 0) }

// closureFields returns the tokens of the fields async.c gave a closure
// class, in order, or nil.
func closureFields(imp unsafe.Pointer, td uint32) ([]uint32, error) { return addedFields(imp, td, 1) }

func addedFields(imp unsafe.Pointer, td uint32, closure C.int) ([]uint32, error) {
	all, err := enumAll("EnumFields", 64, func(toks *C.uint32_t, capacity C.uint32_t, count, total *C.uint32_t) C.int {
		return C.md_enum_fields(imp, C.uint32_t(td), toks, capacity, count, total)
	})
	if err != nil {
		return nil, err
	}
	n := C.ASYNC_FIELDS
	if closure != 0 {
		n = C.CLOSURE_FIELDS
	}
	out := make([]uint32, n)
	found := 0
	for _, fd := range all {
		name, _, _, err := fieldProps(imp, uint32(fd))
		if err != nil || !strings.HasPrefix(name, "<clrotel>") {
			continue
		}
		w := utf16.Encode([]rune(name))
		if len(w) == 0 {
			continue
		}
		if i := C.clr_async_field_index((*C.uint16_t)(&w[0]), C.uint32_t(len(w)), closure); i >= 0 {
			out[i] = uint32(fd)
			found++
		}
	}
	if found != len(out) {
		return nil, nil
	}
	return out, nil
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
