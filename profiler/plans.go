package main

/*
#include <stdlib.h>
#include <string.h>
#include "values.h"
#include "clrinfo.h"
#include "capture.h"
#include "profiler.h"

// clr_code_function finds the method whose code a delegate's method pointer
// leads to. That pointer is usually not the code itself but a precode, a
// stub that jumps to the code once it is compiled: on .NET Core 3.1 a
// "jmp rel32" (E9), on .NET 7+ a "jmp [rip+disp32]" (FF 25) through the
// precode's data. Such jumps are followed (at most four steps), each target
// asked of GetFunctionFromIP, which names compiled managed code from any
// thread. A precode whose method is not compiled (or whose patching waits
// for a later tier: a stub made for ldftn) jumps to its own second half,
// which loads its MethodDesc into r10 (the register the prestub reads it
// from) before going on: "mov r10, [rip+disp32]" (4C 8B 15) on .NET 7+,
// "mov r10, imm64" (49 BA) before. That MethodDesc, a FunctionID in
// CoreCLR, is taken only when the runtime (asked guarded) knows it as a
// method of a loaded module. Anything else is "not known": the delegate
// shows without its method. Runs on a Go thread, never in a hook; memory
// is read through clr_safe_copy. Cheaper than any alternative: nothing is
// done on the app's thread (the hook copies the pointer fields with the
// delegate's others), and each address is resolved once (MethodAt caches).
__attribute__((noinline)) static HRESULT function_known(uintptr_t fid) {
    HRESULT hr;
    ClassID cls = 0;
    ModuleID mod = 0;
    mdToken tok = 0;
    ULONG32 n = 0;
    CLR_GUARDED(hr, clr_info_vtbl()->GetFunctionInfo2(clr_info(), fid, 0, &cls, &mod, &tok, 0, &n, NULL));
    if (hr < 0 || mod == 0 || !clr_module_known(mod) || (tok >> 24) != 0x06)
        return E_FAIL;
    return S_OK;
}

static int clr_code_function(uintptr_t ip, uintptr_t *fid) {
    for (int step = 0; step < 4 && ip != 0; step++) {
        FunctionID f = 0;
        if (clr_info_vtbl()->GetFunctionFromIP(clr_info(), (LPCBYTE)ip, &f) >= 0 && f != 0) {
            *fid = f;
            return 0;
        }
        uint8_t op[10];
        int32_t rel;
        uintptr_t next = 0;
        if (clr_safe_copy(op, (const void *)ip, sizeof op) != 0)
            return -1;
        if (op[0] == 0xE9) { // jmp rel32
            memcpy(&rel, op + 1, 4);
            ip = ip + 5 + (intptr_t)rel;
        } else if (op[0] == 0xFF && op[1] == 0x25) { // jmp [rip+disp32]
            memcpy(&rel, op + 2, 4);
            if (clr_safe_copy(&next, (const void *)(ip + 6 + (intptr_t)rel), 8) != 0)
                return -1;
            ip = next;
        } else if (op[0] == 0x4C && op[1] == 0x8B && op[2] == 0x15) { // mov r10, [rip+disp32]
            memcpy(&rel, op + 3, 4);
            if (clr_safe_copy(&next, (const void *)(ip + 7 + (intptr_t)rel), 8) != 0 || function_known(next) != S_OK)
                return -1;
            *fid = next;
            return 0;
        } else if (op[0] == 0x49 && op[1] == 0xBA) { // mov r10, imm64
            memcpy(&next, op + 2, 8);
            if (function_known(next) != S_OK)
                return -1;
            *fid = next;
            return 0;
        } else {
            return -1;
        }
    }
    return -1;
}
*/
import "C"

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf16"
	"unsafe"

	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/values"
	"github.com/clrotel/clrotel/values/typerender"
)

// planner builds the read plans the C hooks follow: one per traced function
// (at JIT time) and one per runtime class met (a parameter's declared type,
// or a class a hook reported without a plan). Plans live in C memory and are
// never freed: hooks may read them until the process ends.
type planner struct {
	p      *profiler
	redact *values.Redactor

	mu       sync.Mutex
	classes  map[uint64]*classEntry
	building map[uint64]bool
	// tokenClasses: (module, TypeDef or TypeRef token) -> ClassID: a
	// non-generic type's class is fixed while its module is loaded.
	// Bounded by the loaded TypeDefs and TypeRefs.
	tokenClasses map[[2]uint64]uint64
	// instances: (module, generic TypeDef, type argument ClassIDs) ->
	// the instantiation's ClassID, as tokenClasses. Bounded by the
	// instantiations signatures of planned methods name.
	instances map[string]uint64
	// (module, TypeRef) -> its module and TypeDef, as tokenClasses: looking a
	// name up in every loaded module cost each compiled method that takes
	// a generic instantiation (List<T>, Func<T>...) a scan of them all.
	defRefs  map[[2]uint64][2]uint64
	requests chan uint64
	queued   map[uint64]bool
	// valueTypes: (module, TypeDef) -> ownerIsValueType's answer, read
	// from metadata once per type rather than once per method compiled.
	// Bounded by the loaded TypeDefs.
	valueTypes map[[2]uint64]bool

	// defs: a type's name chain (findDef's, joined by NULs) -> the module
	// and TypeDef found, as defRefs but shared by every module: findType
	// scanned every loaded module for System.String or System.Int32 again
	// at each generic instantiation planned. Bounded by the type names the
	// loaded metadata holds; a name not found is not remembered (its
	// module may load later). defsMu guards it: findDef is called without
	// mu too.
	defsMu sync.Mutex
	defs   map[string][2]uint64

	methodsMu sync.Mutex
	methods   map[uint64]string // code address -> method (MethodAt), "" if none

	// rt guards the runtime calls made from Go's own threads (the planner's
	// loop, the drainer's MethodAt): once Shutdown has returned to the
	// runtime (rtClosed), what they would ask about is being torn down
	// (rejit.c met the same with RequestReJIT: a crash at exit).
	rt       sync.RWMutex
	rtClosed bool

	knownDone bool
	// messages: exception messages are read (not with CLROTEL_CAPTURE=off,
	// which reads no value at all: a message can hold a secret too).
	messages bool
	statics  map[string][]string // type -> static field names to record
	// jitThread is true while a traced method's plan is built, on the CLR
	// thread that JIT-compiles it (FunctionIDMapper2). Only there may a
	// type token be turned into a class when that could load the type:
	// loading a type from the planner's own thread (not a runtime thread)
	// crashed the runtime (a Task's TaskScheduler field, .NET 8).
	jitThread bool
	// oldReturns: before .NET 6 the runtime reports a struct returned in
	// registers (SysV, up to 16 bytes) wrongly: the second register is not
	// saved and floating-point halves are not where it points. Such returns
	// are not read there.
	oldReturns bool
}

// classEntry is what the planner knows of one ClassID.
type classEntry struct {
	obj   *C.clr_class_plan // object, string, array or box plan (published)
	strct *C.clr_class_plan // value types: the inline layout
	info  values.ClassInfo

	valueType bool
	primKind  values.Kind // primitive value types: System.Int32 -> KindI4
	enumKind  values.Kind // enums: the underlying kind
	size      uint32      // value types: the value's size
}

func newPlanner(p *profiler, redact *values.Redactor, statics []string) *planner {
	byType := map[string][]string{}
	for _, st := range statics {
		if i := strings.LastIndexByte(st, '.'); i > 0 {
			byType[st[:i]] = append(byType[st[:i]], st[i+1:])
		}
	}
	return &planner{
		p: p, redact: redact, statics: byType,
		classes:      map[uint64]*classEntry{},
		building:     map[uint64]bool{},
		tokenClasses: map[[2]uint64]uint64{},
		instances:    map[string]uint64{},
		defRefs:      map[[2]uint64][2]uint64{},
		valueTypes:   map[[2]uint64]bool{},
		defs:         map[string][2]uint64{},
		requests:     make(chan uint64, 1024),
		queued:       map[uint64]bool{},
	}
}

// run builds the plans hooks asked for (classes written as VT_NOPLAN).
func (pl *planner) run(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case cid := <-pl.requests:
			pl.rt.RLock()
			if !pl.rtClosed {
				pl.mu.Lock()
				if _, err := pl.entry(cid, 0); err != nil {
					pl.p.log.Debugf("class plan %#x: %v", cid, err)
				}
				pl.mu.Unlock()
			}
			pl.rt.RUnlock()
		}
	}
}

// closeRuntime waits for the runtime calls under way on Go's own threads
// and lets no more start: the last thing Shutdown does.
func (pl *planner) closeRuntime() {
	pl.rt.Lock()
	pl.rtClosed = true
	pl.rt.Unlock()
}

// request asks for a class plan without waiting (drainer side).
func (pl *planner) request(cid uint64) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.queued[cid] || pl.classes[cid] != nil {
		return
	}
	select {
	case pl.requests <- cid:
		pl.queued[cid] = true
	default:
	}
}

// maxMethodCache bounds MethodAt's cache (delegates' code addresses).
const maxMethodCache = 4096

// MethodAt implements values.Methods: the method a delegate's code pointer
// leads to, as span names show it (Acme.Shop.Service.Count(Int32 extra)).
// Called by the renderer, off the app's threads. An address that names no
// method is retried later (its method may get compiled), not cached.
func (pl *planner) MethodAt(code uint64) (string, bool) {
	pl.methodsMu.Lock()
	name, ok := pl.methods[code]
	pl.methodsMu.Unlock()
	if ok {
		return name, true
	}
	pl.rt.RLock()
	defer pl.rt.RUnlock()
	if pl.rtClosed {
		return "", false
	}
	var fid C.uintptr_t
	if C.clr_code_function(C.uintptr_t(code), &fid) != 0 {
		return "", false
	}
	m, err := pl.p.resolver.Method(uint64(fid), 0, nil)
	if err != nil {
		return "", false
	}
	name = m.FunctionName + "(" + m.Params + ")"
	pl.methodsMu.Lock()
	if pl.methods == nil || len(pl.methods) >= maxMethodCache {
		pl.methods = map[uint64]string{}
	}
	pl.methods[code] = name
	pl.methodsMu.Unlock()
	return name, true
}

// Class implements values.Classes.
func (pl *planner) Class(id uint64) (values.ClassInfo, bool) {
	pl.mu.Lock()
	e := pl.classes[id]
	pl.mu.Unlock()
	if e != nil {
		return e.info, true
	}
	if name := pl.p.resolver.ClassName(id); name != "?" {
		ci := values.ClassInfo{Name: name}
		if i := strings.LastIndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
			ci.Elem = name[:i]
		}
		return ci, true
	}
	return values.ClassInfo{}, false
}

var primitiveKinds = map[string]values.Kind{
	"Boolean": values.KindBool, "Char": values.KindChar, "SByte": values.KindI1, "Byte": values.KindU1,
	"Int16": values.KindI2, "UInt16": values.KindU2, "Int32": values.KindI4, "UInt32": values.KindU4,
	"Int64": values.KindI8, "UInt64": values.KindU8, "Single": values.KindR4, "Double": values.KindR8,
	"IntPtr": values.KindI, "UIntPtr": values.KindU,
}

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

// slot is how one value is read: its kind and, for structs, the plan.
type slot struct {
	kind values.Kind
	cls  *C.clr_class_plan
	enum *values.Enum
	// KindTypeArg: which type parameter (of the method when methodVar).
	typeArg   uint32
	methodVar bool
}

// maxPlanDepth bounds value types nested inline in value types;
// maxProactiveDepth bounds the classes planned ahead through declared types.
const (
	maxPlanDepth      = 6
	maxProactiveDepth = 3
)

// slotOf says how a value of runtime class cid is stored in a slot.
func (pl *planner) slotOf(cid uint64, depth int) slot {
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

// typeSlot says how a value of signature type t, in module mid, is read.
// typeArgs and methodArgs are the runtime ClassIDs for VAR and MVAR.
func (pl *planner) typeSlot(t naming.Type, mid uint64, typeArgs, methodArgs []uint64, depth int) slot {
	if t.Kind == naming.ElemSZArray && t.Elem != nil && depth < maxProactiveDepth {
		pl.planArrayElem(*t.Elem, mid, typeArgs, methodArgs, depth)
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
				if cid, err := pl.classOfType(t, mid, typeArgs, methodArgs, depth); err == nil {
					_, _ = pl.entry(cid, depth+1)
				}
			}
			return slot{kind: values.KindRef}
		}
		// A generic value type (Nullable<Int32>, KeyValuePair<K, V>): its
		// exact instantiation from the runtime's type arguments. It may
		// never have been loaded (shared code lays KeyValuePair<String,
		// Int32> out as KeyValuePair<__Canon, Int32>; LINQ's ordered
		// sequences over Int32 hold instantiations not loaded yet either),
		// and asking for it loads it: only on the thread that JIT-compiles
		// a traced method. From the planner's own thread the runtime loaded
		// it with no Thread of its own and crashed (NRefactory's parser:
		// 3.1 SIGSEGV in LoadTypeHandleForTypeKey_Body, 8 a smashed stack;
		// generator seed 35, a smashed stack on 8 with Int32 arguments
		// only); off that thread such a field is not read.
		if !pl.jitThread {
			return slot{}
		}
		cid, err := pl.classOfType(t, mid, typeArgs, methodArgs, depth)
		if err != nil {
			pl.p.log.Debugf("generic value type: %v", err)
			return slot{}
		}
		return pl.slotOf(cid, depth+1)
	case naming.ElemClass:
		// Plan the declared class now, so that the first call already reads
		// it; objects of other (derived) classes get plans when first met.
		// Only at JIT time: the declared class may not be loaded yet.
		if pl.jitThread && depth < maxProactiveDepth {
			if cid, err := pl.resolveToken(mid, t.Token); err == nil {
				_, _ = pl.entry(cid, depth+1)
			}
		}
		return slot{kind: values.KindRef}
	case naming.ElemValueType:
		cid, err := pl.resolveToken(mid, t.Token)
		if err != nil {
			pl.p.log.Debugf("value type %#x: %v", t.Token, err)
			return slot{}
		}
		return pl.slotOf(cid, depth+1)
	case naming.ElemVar, naming.ElemMVar:
		args := typeArgs
		if t.Kind == naming.ElemMVar {
			args = methodArgs
		}
		if int(t.Index) >= len(args) {
			// Shared code whose instantiation is not known here: a type
			// parameter may stand for a reference type (shared) or for a
			// value type fixed in this instantiation (Pair<Int32, __Canon>).
			// The frame tells, per call.
			return slot{kind: values.KindTypeArg, typeArg: t.Index, methodVar: t.Kind == naming.ElemMVar}
		}
		if pl.p.resolver.ClassName(args[t.Index]) == "System.__Canon" {
			return slot{kind: values.KindRef}
		}
		return pl.slotOf(args[t.Index], depth+1)
	}
	return slot{}
}

// planArrayElem plans the value type an array field or parameter holds
// (List<KeyValuePair<K, V>>._items, Dictionary's Entry[]), so that the
// hooks can read such an array the first time they meet it.
func (pl *planner) planArrayElem(e naming.Type, mid uint64, typeArgs, methodArgs []uint64, depth int) {
	switch e.Kind {
	case naming.ElemVar, naming.ElemMVar:
		args := typeArgs
		if e.Kind == naming.ElemMVar {
			args = methodArgs
		}
		if int(e.Index) < len(args) && pl.p.resolver.ClassName(args[e.Index]) != "System.__Canon" {
			_, _ = pl.entry(args[e.Index], depth+1)
		}
	case naming.ElemGenericInst, naming.ElemValueType:
		if !pl.jitThread { // resolving may load the type: only on the JIT thread
			return
		}
		if e.Kind == naming.ElemGenericInst && (e.Elem == nil || e.Elem.Kind != naming.ElemValueType) {
			return
		}
		if cid, err := pl.classOfType(e, mid, typeArgs, methodArgs, depth); err == nil {
			_, _ = pl.entry(cid, depth+1)
		}
	}
}

// classOfType finds the runtime ClassID of a signature type (for type
// arguments of generic value types).
func (pl *planner) classOfType(t naming.Type, mid uint64, typeArgs, methodArgs []uint64, depth int) (uint64, error) {
	if depth > maxPlanDepth {
		return 0, fmt.Errorf("type nested too deep")
	}
	if name, ok := primitiveTypeNames[t.Kind]; ok {
		return pl.findType([]string{"System." + name})
	}
	switch t.Kind {
	case naming.ElemString:
		return pl.findType([]string{"System.String"})
	case naming.ElemObject:
		return pl.findType([]string{"System.Object"})
	case naming.ElemClass, naming.ElemValueType:
		return pl.resolveToken(mid, t.Token)
	case naming.ElemVar, naming.ElemMVar:
		args := typeArgs
		if t.Kind == naming.ElemMVar {
			args = methodArgs
		}
		if int(t.Index) < len(args) {
			return args[t.Index], nil
		}
	case naming.ElemGenericInst:
		if t.Elem == nil {
			break
		}
		defMod, td, err := pl.resolveDef(mid, t.Elem.Token)
		if err != nil {
			return 0, err
		}
		ids := make([]C.uintptr_t, len(t.Args))
		for i, a := range t.Args {
			id, err := pl.classOfType(a, mid, typeArgs, methodArgs, depth+1)
			if err != nil {
				return 0, err
			}
			ids[i] = C.uintptr_t(id)
		}
		var cid C.uintptr_t
		if len(ids) == 0 {
			break
		}
		key := fmt.Sprint(defMod, td, ids)
		if c, ok := pl.instances[key]; ok {
			return c, nil
		}
		if hr := C.clr_class_from_token_args(C.uintptr_t(defMod), C.uint32_t(td), C.uint32_t(len(ids)), &ids[0], &cid); hr != 0 {
			return 0, hrErr("GetClassFromTokenAndTypeArgs", hr)
		}
		if cid != 0 {
			pl.instances[key] = uint64(cid)
		}
		return uint64(cid), nil
	}
	return 0, fmt.Errorf("no runtime class for %v", t.Kind)
}

var primitiveTypeNames = map[naming.ElementType]string{
	naming.ElemBoolean: "Boolean", naming.ElemChar: "Char", naming.ElemI1: "SByte", naming.ElemU1: "Byte",
	naming.ElemI2: "Int16", naming.ElemU2: "UInt16", naming.ElemI4: "Int32", naming.ElemU4: "UInt32",
	naming.ElemI8: "Int64", naming.ElemU8: "UInt64", naming.ElemR4: "Single", naming.ElemR8: "Double",
	naming.ElemI: "IntPtr", naming.ElemU: "UIntPtr",
}

// resolveDef finds the module and TypeDef a TypeDef or TypeRef token of
// module mid stands for.
func (pl *planner) resolveDef(mid uint64, tok uint32) (uint64, uint32, error) {
	if tok&0xff000000 == 0x02000000 {
		return mid, tok, nil
	}
	if tok&0xff000000 != 0x01000000 {
		return 0, 0, fmt.Errorf("token %#x is not a TypeDef or TypeRef", tok)
	}
	key := [2]uint64{mid, uint64(tok)}
	if d, ok := pl.defRefs[key]; ok {
		return d[0], uint32(d[1]), nil
	}
	mod, err := pl.p.resolver.ModuleInfo(mid)
	if err != nil {
		return 0, 0, err
	}
	var chain []string
	for cur, i := tok, 0; i < 8; i++ {
		name, scope, err := mod.Meta.TypeRefName(cur)
		if err != nil {
			return 0, 0, err
		}
		chain = append([]string{name}, chain...)
		if scope&0xff000000 != 0x01000000 {
			break
		}
		cur = scope
	}
	m, td, ok := pl.findDef(chain)
	if !ok {
		return 0, 0, fmt.Errorf("type %s not found in any loaded module", strings.Join(chain, "+"))
	}
	pl.defRefs[key] = [2]uint64{m, uint64(td)}
	return m, td, nil
}

// resolveToken finds the ClassID of a TypeDef or TypeRef used in module
// mid. A TypeRef names a type by name only (the metadata API does not link
// it to a module): resolveDef looks the name up in the loaded modules.
func (pl *planner) resolveToken(mid uint64, tok uint32) (uint64, error) {
	key := [2]uint64{mid, uint64(tok)}
	if cid, ok := pl.tokenClasses[key]; ok {
		return cid, nil
	}
	m, td, err := pl.resolveDef(mid, tok)
	if err != nil {
		return 0, err
	}
	var cid C.uintptr_t
	if hr := C.clr_class_from_token(C.uintptr_t(m), C.uint32_t(td), &cid); hr != 0 || cid == 0 {
		return 0, hrErr("GetClassFromToken", hr)
	}
	pl.tokenClasses[key] = uint64(cid)
	return uint64(cid), nil
}

// findDef looks a type up by name (outermost first for nested types) in
// the loaded modules, and returns its module and TypeDef.
func (pl *planner) findDef(chain []string) (uint64, uint32, bool) {
	key := strings.Join(chain, "\x00")
	pl.defsMu.Lock()
	d, ok := pl.defs[key]
	pl.defsMu.Unlock()
	// Modules are only ever added at the end of the list: the first one
	// that defines the name stays the first while it is loaded.
	if ok && C.clr_module_known(C.uintptr_t(d[0])) != 0 {
		return d[0], uint32(d[1]), true
	}
	m, td, ok := pl.scanDef(chain)
	if ok {
		pl.defsMu.Lock()
		pl.defs[key] = [2]uint64{m, uint64(td)}
		pl.defsMu.Unlock()
	}
	return m, td, ok
}

// scanDef is findDef, uncached: the first loaded module defining the type.
func (pl *planner) scanDef(chain []string) (uint64, uint32, bool) {
	names := make([][]uint16, len(chain))
	for i, name := range chain {
		names[i] = utf16.Encode([]rune(name + "\x00"))
	}
	mods := make([]C.uintptr_t, 8192)
	n := C.clr_modules(&mods[0], C.uint32_t(len(mods)))
	for _, m := range mods[:n] {
		mod, err := pl.p.resolver.ModuleInfo(uint64(m))
		if err != nil {
			continue
		}
		imp := mod.Meta.(metadata).imp
		var td C.uint32_t
		ok := true
		for _, w := range names {
			if C.md_find_typedef(imp, (*C.uint16_t)(&w[0]), td, &td) != 0 {
				ok = false
				break
			}
		}
		if ok {
			return uint64(m), uint32(td), true
		}
	}
	return 0, 0, false
}

// findType finds the ClassID of a non-generic type by name.
func (pl *planner) findType(chain []string) (uint64, error) {
	m, td, ok := pl.findDef(chain)
	if !ok {
		return 0, fmt.Errorf("type %s not found in any loaded module", strings.Join(chain, "+"))
	}
	var cid C.uintptr_t
	if hr := C.clr_class_from_token(C.uintptr_t(m), C.uint32_t(td), &cid); hr != 0 || cid == 0 {
		return 0, fmt.Errorf("type %s: GetClassFromToken: HRESULT %#x", strings.Join(chain, "+"), uint32(hr))
	}
	return uint64(cid), nil
}

// entry builds (once) what the planner knows of class cid. Called with mu held.
func (pl *planner) entry(cid uint64, depth int) (*classEntry, error) {
	if e := pl.classes[cid]; e != nil {
		return e, nil
	}
	if depth > maxPlanDepth || pl.building[cid] {
		return nil, fmt.Errorf("class %#x: nested too deep", cid)
	}
	pl.building[cid] = true
	defer delete(pl.building, cid)

	rt := clrRuntime{}
	c, err := rt.Class(cid)
	if err != nil {
		return nil, err
	}
	name := pl.p.resolver.ClassName(cid)
	e := &classEntry{info: values.ClassInfo{Name: name}}
	switch {
	case c.IsArray:
		if err := pl.arrayPlan(e, cid, c, depth); err != nil {
			return nil, err
		}
	case name == "String":
		e.obj = newClassPlan(cid, C.SHAPE_STRING, 0)
	default:
		if err := pl.layoutPlan(e, cid, c, depth); err != nil {
			return nil, err
		}
	}
	if e.obj != nil {
		if C.clr_plan_publish(e.obj) != 0 {
			pl.p.log.Warnf("class plan table full: values of %s are not read", name)
		}
	}
	pl.classes[cid] = e
	return e, nil
}

func newClassPlan(cid uint64, shape C.uint8_t, nfields int) *C.clr_class_plan {
	size := unsafe.Sizeof(C.clr_class_plan{}) + uintptr(nfields)*unsafe.Sizeof(C.clr_value_plan{})
	p := (*C.clr_class_plan)(C.calloc(1, C.size_t(size)))
	p.class_id = C.uintptr_t(cid)
	p.shape = shape
	p.nfields = C.uint16_t(nfields)
	return p
}

func planFields(p *C.clr_class_plan) []C.clr_value_plan {
	base := unsafe.Add(unsafe.Pointer(p), unsafe.Sizeof(C.clr_class_plan{}))
	return unsafe.Slice((*C.clr_value_plan)(base), int(p.nfields))
}

func (pl *planner) arrayPlan(e *classEntry, cid uint64, c naming.Class, depth int) error {
	var s slot
	var elemSize uint32 = 8
	var elemName string
	if c.ElemCls != 0 {
		elemName = pl.p.resolver.ClassName(c.ElemCls)
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
	p := newClassPlan(cid, C.SHAPE_ARRAY, 0)
	p.elem_kind = C.uint8_t(s.kind)
	p.elem = s.cls
	p.elem_size = C.uint32_t(elemSize)
	p.rank = C.uint32_t(c.Rank)
	if p.rank == 0 {
		p.rank = 1
	}
	if s.kind == values.KindSkip || elemSize == 0 {
		p.elem_kind = C.VK_SKIP
		p.elem_size = 8
	}
	e.obj = p
	return nil
}

type fieldRow struct {
	name   string
	offset uint32
	slot   slot
}

// layoutPlan builds the plan of a class or value type from its layout and
// its parents' (GetClassIDInfo2 up the chain, GetClassLayout each).
func (pl *planner) layoutPlan(e *classEntry, cid uint64, c naming.Class, depth int) error {
	rt := clrRuntime{}
	// The chain from cid up to (not including) System.Object.
	type link struct {
		cid uint64
		c   naming.Class
	}
	chain := []link{{cid, c}}
	for cur := c; cur.Parent != 0 && len(chain) < 32; {
		pc, err := rt.Class(cur.Parent)
		if err != nil {
			break
		}
		pname := pl.p.resolver.ClassName(cur.Parent)
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
		layout, sz, err := classLayout(l.cid)
		if err != nil {
			return err
		}
		size = sz
		mod, err := pl.p.resolver.ModuleInfo(l.c.Module)
		if err != nil {
			return err
		}
		md := mod.Meta.(metadata)
		for _, f := range layout {
			name, sig, attrs, err := md.fieldProps(uint32(f.token))
			if err != nil || attrs&0x10 != 0 { // static fields have no offset in the object
				continue
			}
			if strings.HasPrefix(name, "<clrotel>") {
				continue // the profiler's own fields (async.c): not the app's state
			}
			ft, err := naming.ParseFieldSig(sig)
			var s slot
			if err == nil {
				s = pl.typeSlot(ft, l.c.Module, l.c.TypeArgs, nil, depth)
			}
			if s.kind == values.KindTypeArg {
				s = slot{} // a class's own type arguments are always known
			}
			rows = append(rows, fieldRow{name: name, offset: uint32(f.offset), slot: s})
		}
	}
	if e.info.Enum != nil {
		pl.enumNames(e, c)
		for _, r := range rows {
			e.enumKind = r.slot.kind // value__
		}
	}
	e.size = size
	plan := newClassPlan(cid, C.SHAPE_OBJECT, len(rows))
	fields := planFields(plan)
	e.info.Fields = make([]values.Field, len(rows))
	for i, r := range rows {
		fields[i].kind = C.uint8_t(r.slot.kind)
		fields[i].offset = C.uint32_t(r.offset)
		fields[i].cls = r.slot.cls
		if pl.redact.Sensitive(r.name) {
			fields[i].redact = 1
		}
		e.info.Fields[i] = values.Field{Name: displayFieldName(r.name), Enum: r.slot.enum}
	}
	boundCollections(e.info.Name, rows, fields)
	nodeLinks(plan, e.info, rows)
	if !e.valueType {
		e.obj = plan
		return nil
	}
	plan.shape = C.SHAPE_STRUCT
	plan.elem_size = C.uint32_t(size)
	e.strct = plan
	var off C.uint32_t
	if C.clr_box_offset(C.uintptr_t(cid), &off) == 0 {
		box := newClassPlan(cid, C.SHAPE_BOXED, 0)
		box.box_offset = off
		box.elem = plan
		e.obj = box
	}
	return nil
}

// boundCollections marks the array fields a collection uses only up to a
// count field (typerender.Bounds decides which, by field name): the hooks
// copy no element past the count. A walked collection's field (a tree's
// root, an array of hash chains) is marked for the hooks to walk, with its
// count field if it has one.
func boundCollections(class string, rows []fieldRow, fields []C.clr_value_plan) {
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.name
	}
	for _, b := range typerender.Bounds(class, names) {
		arr, cnt := -1, -1
		for i, r := range rows {
			switch {
			case r.name == b.Array && r.slot.kind == values.KindRef:
				arr = i
			case r.name == b.Count && r.slot.kind == values.KindI4:
				cnt = i
			}
		}
		switch {
		case arr < 0:
		case b.Walk == typerender.WalkInner:
			fields[arr].bounded = C.BOUND_INNER
		case b.Walk != typerender.WalkNone:
			fields[arr].bounded = C.BOUND_TREE
			if b.Walk == typerender.WalkChains {
				fields[arr].bounded = C.BOUND_CHAINS
			}
			fields[arr].bound_offset = C.BOUND_NO_COUNT
			if cnt >= 0 {
				fields[arr].bound_offset = C.uint32_t(rows[cnt].offset)
			}
		case cnt >= 0:
			fields[arr].bounded = C.BOUND_COLLECTION
			if b.Text {
				fields[arr].bounded = C.BOUND_TEXT
			}
			fields[arr].bound_offset = C.uint32_t(rows[cnt].offset)
		}
	}
}

// nodeLinks marks, in the plan of a walked collection's node class
// (typerender.NodeLinks decides, by field name), the fields that link
// nodes and the subtree count: the hooks follow them.
func nodeLinks(plan *C.clr_class_plan, info values.ClassInfo, rows []fieldRow) {
	names := make([]string, len(info.Fields))
	for i, f := range info.Fields {
		names[i] = f.Name
	}
	l, ok := typerender.NodeLinks(info.Name, names)
	if !ok {
		return
	}
	index := func(name string, kind values.Kind) C.uint8_t {
		for i, f := range info.Fields {
			if name != "" && f.Name == name && i < len(rows) && rows[i].slot.kind == kind && i < 255 {
				return C.uint8_t(i + 1)
			}
		}
		return 0
	}
	left, right, count := index(l.Left, values.KindRef), index(l.Right, values.KindRef), index(l.Count, values.KindI4)
	if left == 0 || (l.Right != "" && right == 0) || (l.Count != "" && count == 0) {
		return // not the expected kinds: the collection renders generically
	}
	plan.link[0], plan.link[1], plan.node_count = left, right, count
}

// ownerIsValueType tells from metadata alone whether a method's owning type
// is a struct (its base type is System.ValueType or System.Enum): shared
// generic code has no ClassID to ask the runtime about. Called with mu held.
func (pl *planner) ownerIsValueType(m *naming.Method) bool {
	key := [2]uint64{m.ModuleID, uint64(m.OwnerToken)}
	if v, ok := pl.valueTypes[key]; ok {
		return v
	}
	mod, err := pl.p.resolver.ModuleInfo(m.ModuleID)
	if err != nil {
		return false
	}
	v := isValueType(mod.Meta.(metadata), m.OwnerToken)
	pl.valueTypes[key] = v
	return v
}

// isValueType tells whether TypeDef td's base type is System.ValueType or
// System.Enum.
func isValueType(md metadata, td uint32) bool {
	ext, err := md.Extends(td)
	if err != nil || ext == 0 {
		return false
	}
	var base string
	switch ext >> 24 {
	case 0x01: // TypeRef
		base, _, err = md.TypeRefName(ext)
	case 0x02: // TypeDef (inside CoreLib)
		base, err = md.TypeDefName(ext)
	}
	return err == nil && (base == "System.ValueType" || base == "System.Enum")
}

// displayFieldName shows an auto-property's backing field by the property's
// name: <Name>k__BackingField -> Name.
func displayFieldName(n string) string {
	if strings.HasPrefix(n, "<") {
		if i := strings.Index(n, ">k__BackingField"); i > 0 {
			return n[1:i]
		}
	}
	return n
}

func fieldProps(imp unsafe.Pointer, fd uint32) (name string, sig []byte, attrs uint32, err error) {
	var owner, a, sl C.uint32_t
	var s *C.uint8_t
	name, err = askName("GetFieldProps", func(buf *C.uint16_t, capacity C.uint32_t, n *C.uint32_t) C.int {
		return C.md_field_props(imp, C.uint32_t(fd), &owner, buf, capacity, n, &a, &s, &sl)
	})
	if err != nil {
		return "", nil, 0, err
	}
	return name, C.GoBytes(unsafe.Pointer(s), C.int(sl)), uint32(a), nil
}

// typeFields lists a TypeDef's fields (static ones too) and returns the
// module's metadata with them.
func (pl *planner) typeFields(mid uint64, td uint32) (metadata, []C.uint32_t, error) {
	mod, err := pl.p.resolver.ModuleInfo(mid)
	if err != nil {
		return metadata{}, nil, err
	}
	md := mod.Meta.(metadata)
	toks, err := enumAll("EnumFields", 64, func(toks *C.uint32_t, capacity C.uint32_t, count, total *C.uint32_t) C.int {
		return C.md_enum_fields(md.imp, C.uint32_t(td), toks, capacity, count, total)
	})
	if err != nil {
		return metadata{}, nil, err
	}
	return md, toks, nil
}

// classLayout returns a class's instance fields (token and offset) and its
// size, asking the runtime for the count first.
func classLayout(cid uint64) ([]C.clr_field_offset, uint32, error) {
	var n, sz C.uint32_t
	if hr := C.clr_class_layout(C.uintptr_t(cid), nil, 0, &n, &sz); hr != 0 {
		return nil, 0, hrErr("GetClassLayout", hr)
	}
	if n == 0 {
		return nil, uint32(sz), nil
	}
	if n > maxName {
		return nil, 0, fmt.Errorf("GetClassLayout: %d fields", n)
	}
	fields := make([]C.clr_field_offset, n)
	var got C.uint32_t
	if hr := C.clr_class_layout(C.uintptr_t(cid), &fields[0], n, &got, &sz); hr != 0 {
		return nil, 0, hrErr("GetClassLayout", hr)
	}
	if got > n {
		return nil, 0, fmt.Errorf("GetClassLayout: %d fields, then %d", n, got)
	}
	return fields[:got], uint32(sz), nil
}

// enumNames reads an enum's literal fields: value -> name.
func (pl *planner) enumNames(e *classEntry, c naming.Class) {
	md, toks, err := pl.typeFields(c.Module, c.Token)
	if err != nil {
		return
	}
	flags := utf16.Encode([]rune("System.FlagsAttribute\x00"))
	e.info.Enum.Flags = C.md_has_attribute(md.imp, C.uint32_t(c.Token), (*C.uint16_t)(&flags[0])) != 0
	for _, t := range toks {
		var v C.uint64_t
		var attrs C.uint32_t
		if C.md_field_constant(md.imp, t, &v, &attrs) != 0 || attrs&0x40 == 0 { // fdLiteral
			continue
		}
		name, _, _, err := md.fieldProps(uint32(t))
		if err == nil {
			if _, dup := e.info.Enum.Values[uint64(v)]; !dup {
				e.info.Enum.Values[uint64(v)] = name
			}
		}
	}
}

// prepare plans, once, before the first traced call can run: String and the
// boxes of the primitive types (met as `object` arguments), and where
// System.Exception keeps its message and inner exception.
func (pl *planner) prepare() {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.knownDone {
		return
	}
	// Too early (CoreLib's classes not loaded yet) is tried again.
	if _, err := pl.findType([]string{"System.String"}); err != nil {
		return
	}
	pl.knownDone = true
	if pl.messages {
		pl.exceptionLayout()
	}
	pl.wellKnownClasses()
}

// wellKnownClasses plans String and the primitive boxes. Called with mu held.
func (pl *planner) wellKnownClasses() {
	names := []string{"String"}
	for n := range primitiveKinds {
		names = append(names, n)
	}
	for _, n := range names {
		if cid, err := pl.findType([]string{"System." + n}); err == nil {
			_, _ = pl.entry(cid, 0)
		}
	}
}

// hasFloat reports whether a struct holds a float or double (returned in an
// SSE register on SysV).
func hasFloat(p *C.clr_class_plan, depth int) bool {
	if p == nil || depth > maxPlanDepth {
		return true
	}
	for _, f := range planFields(p) {
		switch values.Kind(f.kind) {
		case values.KindR4, values.KindR8:
			return true
		case values.KindStruct:
			if hasFloat(f.cls, depth+1) {
				return true
			}
		}
	}
	return false
}

// fnPlan is a function's C plan and how its values render.
type fnPlan struct {
	c     *C.clr_fn_plan
	enter []values.Slot // this (if any), then the arguments
	ret   []values.Slot
}

// functionPlan builds the plan of a traced method.
func (pl *planner) functionPlan(m *naming.Method) *fnPlan {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.jitThread = true
	defer func() { pl.jitThread = false }()
	sig := m.Sig
	n := len(sig.Params)
	size := unsafe.Sizeof(C.clr_fn_plan{}) + uintptr(n)*unsafe.Sizeof(C.clr_value_plan{})
	cp := (*C.clr_fn_plan)(C.calloc(1, C.size_t(size)))
	cp.nargs = C.uint16_t(n)
	fp := &fnPlan{c: cp, enter: make([]values.Slot, 0, n+1)}
	if sig.HasThis && !sig.ExplicitThis {
		cp.has_this = 1
		s := slot{kind: values.KindRef}
		// `this` of a value type's method is a managed pointer to it, never
		// an object reference: whether the owner is a struct is read from
		// metadata, so that no failure below can make it one.
		if pl.ownerIsValueType(m) {
			s = slot{} // not read, unless planned below
			if m.ClassID == 0 {
				// Shared code of a generic struct: the exact type is known
				// only from the frame.
				s = slot{kind: values.KindByRef}
				cp.this_exact = 1
			} else if e, err := pl.entry(m.ClassID, 0); err == nil && e.valueType {
				inner := pl.slotOf(m.ClassID, 0)
				s = slot{kind: values.KindByRef, cls: inner.cls}
				cp.this_plan.elem_kind = C.uint8_t(inner.kind)
			}
		} else if m.ClassID != 0 {
			_, _ = pl.entry(m.ClassID, 0) // planned now, so the first call reads it
		}
		if m.Name == ".ctor" {
			// A constructor's `this` on entry is the new object with every
			// field at its default: nothing worth a span attribute.
			s, cp.this_exact = slot{}, 0
		}
		cp.this_plan.kind = C.uint8_t(s.kind)
		cp.this_plan.cls = s.cls
		fp.enter = append(fp.enter, values.Slot{Key: "dotnet.this"})
	}
	args := unsafe.Slice((*C.clr_value_plan)(unsafe.Add(unsafe.Pointer(cp), unsafe.Sizeof(C.clr_fn_plan{}))), n)
	for i, t := range sig.Params {
		var prm naming.Param
		if i < len(m.Params2) {
			prm = m.Params2[i]
		}
		name := prm.Name
		if name == "" {
			name = fmt.Sprintf("arg%d", i)
		}
		var s slot
		if t.Kind == naming.ElemByRef && t.Elem != nil {
			if !(prm.Out && !prm.In) { // out parameters hold nothing yet on entry
				inner := pl.typeSlot(*t.Elem, m.ModuleID, m.TypeArgIDs, m.MethodArgIDs, 0)
				if inner.kind != values.KindSkip {
					s = slot{kind: values.KindByRef, cls: inner.cls, enum: inner.enum, typeArg: inner.typeArg, methodVar: inner.methodVar}
					args[i].elem_kind = C.uint8_t(inner.kind)
				}
			}
		} else {
			s = pl.typeSlot(t, m.ModuleID, m.TypeArgIDs, m.MethodArgIDs, 0)
		}
		args[i].kind = C.uint8_t(s.kind)
		args[i].cls = s.cls
		setTypeArg(&args[i], s)
		if pl.redact.Sensitive(name) || setterValue(m, i) && pl.redact.Sensitive(m.Name) {
			args[i].redact = 1
		}
		fp.enter = append(fp.enter, values.Slot{Key: "dotnet.arg." + name, Enum: s.enum})
	}
	pl.staticsPlan(m, fp)
	if sig.Ret.Kind != naming.ElemVoid && sig.Ret.Kind != naming.ElemByRef {
		s := pl.typeSlot(sig.Ret, m.ModuleID, m.TypeArgIDs, m.MethodArgIDs, 0)
		if s.kind == values.KindStruct && pl.oldReturns && s.cls != nil && s.cls.elem_size <= 16 &&
			(s.cls.elem_size > 8 || hasFloat(s.cls, 0)) {
			s = slot{}
		}
		if s.kind == values.KindTypeArg && pl.oldReturns {
			s = slot{} // it may be such a struct: the runtime would misreport it
		}
		if s.kind != values.KindSkip {
			cp.capture_ret = 1
			cp.ret.kind = C.uint8_t(s.kind)
			cp.ret.cls = s.cls
			setTypeArg(&cp.ret, s)
			if pl.redact.Sensitive(m.Name) {
				cp.ret.redact = 1
			}
			fp.ret = []values.Slot{{Key: "dotnet.return", Enum: s.enum}}
		}
	}
	return fp
}

// setTypeArg copies which type parameter a KindTypeArg slot (or a by-ref to
// one) stands for into its C plan.
func setTypeArg(vp *C.clr_value_plan, s slot) {
	if s.kind != values.KindTypeArg && C.uint8_t(values.KindTypeArg) != vp.elem_kind {
		return
	}
	vp.offset = C.uint32_t(s.typeArg)
	if s.methodVar {
		vp.method_var = 1
	}
}

// setterValue reports whether argument i of m is a property setter's value
// (set_ApiToken(String value)), judged by the property's name. Indexers
// (set_Item(key, value)) end with it too.
func setterValue(m *naming.Method, i int) bool {
	return strings.HasPrefix(m.Name, "set_") && i == len(m.Sig.Params)-1
}

// staticsPlan adds the configured static fields of m's type to its plan.
func (pl *planner) staticsPlan(m *naming.Method, fp *fnPlan) {
	typeKey := strings.TrimSuffix(m.SelectName, "."+m.Name)
	names := pl.statics[typeKey]
	if len(names) == 0 {
		return
	}
	if m.ClassID == 0 {
		pl.p.log.Warnf("statics of %s: not read in shared generic code", typeKey)
		return
	}
	md, toks, err := pl.typeFields(m.ModuleID, m.OwnerToken)
	if err != nil {
		return
	}
	byName := map[string]uint32{}
	for _, t := range toks {
		if name, _, attrs, err := md.fieldProps(uint32(t)); err == nil && attrs&0x10 != 0 {
			byName[name] = uint32(t)
		}
	}
	threadStatic := utf16.Encode([]rune("System.ThreadStaticAttribute\x00"))
	contextStatic := utf16.Encode([]rune("System.ContextStaticAttribute\x00"))
	var plans []C.clr_static_plan
	for _, name := range names {
		tok, ok := byName[name]
		if !ok {
			pl.p.log.Warnf("statics: %s has no static field %s", typeKey, name)
			continue
		}
		if C.md_has_attribute(md.imp, C.uint32_t(tok), (*C.uint16_t)(&contextStatic[0])) != 0 {
			pl.p.log.Warnf("statics: %s.%s is [ContextStatic]: context statics do not exist on CoreCLR; not read", typeKey, name)
			continue
		}
		_, sig, attrs, err := md.fieldProps(tok)
		if err != nil {
			continue
		}
		ft, err := naming.ParseFieldSig(sig)
		if err != nil {
			continue
		}
		sp := C.clr_static_plan{class_id: C.uintptr_t(m.ClassID), field: C.uint32_t(tok), where: C.STATIC_APPDOMAIN}
		switch {
		case attrs&0x100 != 0: // fdHasFieldRVA
			sp.where = C.STATIC_RVA
		case C.md_has_attribute(md.imp, C.uint32_t(tok), (*C.uint16_t)(&threadStatic[0])) != 0:
			sp.where = C.STATIC_THREAD
		}
		// The runtime answers with the address of the value itself, for
		// value types too (inside their box): read it as the field's type.
		s := pl.typeSlot(ft, m.ModuleID, m.TypeArgIDs, nil, 0)
		sp.value.kind = C.uint8_t(s.kind)
		sp.value.cls = s.cls
		setTypeArg(&sp.value, s)
		if pl.redact.Sensitive(name) {
			sp.value.redact = 1
		}
		plans = append(plans, sp)
		fp.enter = append(fp.enter, values.Slot{Key: "dotnet.static." + name, Enum: s.enum})
	}
	if len(plans) == 0 {
		return
	}
	arr := (*C.clr_static_plan)(C.calloc(C.size_t(len(plans)), C.size_t(unsafe.Sizeof(C.clr_static_plan{}))))
	copy(unsafe.Slice(arr, len(plans)), plans)
	fp.c.statics = arr
	fp.c.nstatics = C.uint32_t(len(plans))
}

// exceptionLayout finds System.Exception's _message and _innerException
// offsets (from GetClassLayout), the same in every derived exception, and
// hands them to the hooks.
func (pl *planner) exceptionLayout() {
	cid, err := pl.findType([]string{"System.Exception"})
	if err != nil {
		pl.p.log.Warnf("exception messages will not be read: %v", err)
		return
	}
	c, err := clrRuntime{}.Class(cid)
	if err != nil {
		return
	}
	mod, err := pl.p.resolver.ModuleInfo(c.Module)
	if err != nil {
		return
	}
	imp := mod.Meta.(metadata).imp
	layout, _, err := classLayout(cid)
	if err != nil {
		return
	}
	var msg, inner uint32
	for _, f := range layout {
		name, _, _, err := fieldProps(imp, uint32(f.token))
		switch {
		case err != nil:
		case name == "_message":
			msg = uint32(f.offset)
		case name == "_innerException":
			inner = uint32(f.offset)
		}
	}
	if msg == 0 {
		pl.p.log.Warnf("System.Exception has no _message field: exception messages will not be read")
	}
	pl.p.log.Debugf("System.Exception: _message at %d, _innerException at %d", msg, inner)
	C.clr_set_exception_layout(C.uint32_t(msg), C.uint32_t(inner))
}
