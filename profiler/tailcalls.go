package main

/*
#include "capture.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/clrotel/clrotel/clr"
	"github.com/clrotel/clrotel/flows"
)

// mdVirtual is CorMethodAttr's virtual bit: a virtual callee may be an
// override of another definition, or of another module.
const mdVirtual = 0x0040

// errNotLoaded: a callee's type is in no loaded module yet.
var errNotLoaded = errors.New("type not loaded")

// setTailCallees gives the hooks' block of function fid (named name) its
// definition's key and those of the methods it calls in tail position
// (flows.TailCallees named by flows.CallTarget; none when one is virtual
// or cannot be named), and registers it by its definition: a frame of it
// that leaves by a tail call stays until the callee that replaced it
// returns (hooks.c, tail calls).
//
// A callee of another module that is not loaded yet (a method is compiled
// before the methods it calls are) is named when it is compiled itself,
// which is before its first Enter: until then the frame ends where it
// tail-calls, as the hooks wait only for callees already hooked.
func (p *profiler) setTailCallees(c *C.clr_fn, fid uint64, meta clr.Metadata, name string) {
	module, token, err := clr.MethodDef(fid)
	if err != nil {
		return
	}
	c.def_key = C.uint64_t(defKey(module, token))
	C.clr_def_put(c)
	p.tails.named(module, token, meta, name, uint64(c.def_key))
	body, ok := clr.ILBody(module, token)
	if !ok {
		return
	}
	toks, err := flows.TailCallees(body)
	if err != nil || len(toks) == 0 {
		return
	}
	w := &tailWait{c: c, keys: make([]uint64, len(toks)), later: make([]flows.Callee, len(toks))}
	for i, t := range toks {
		callee, key, err := p.tails.calleeKey(p, module, meta, t)
		switch {
		case errors.Is(err, errNotLoaded):
			w.later[i] = callee
		case err != nil:
			p.log.Debugf("tail calls of %#x: %v", token, err)
			return
		default:
			w.keys[i] = key
		}
	}
	p.tails.add(w)
}

// calleeKey is p.calleeKey, once per token of a module: the methods of a
// module call the same few methods (String.Concat) through the same
// MemberRef. A type not loaded yet is asked again.
func (tw *tailWaits) calleeKey(p *profiler, module uint64, meta clr.Metadata, tok uint32) (flows.Callee, uint64, error) {
	k := [2]uint64{module, uint64(tok)}
	tw.mu.Lock()
	r, ok := tw.answers[k]
	tw.mu.Unlock()
	if ok {
		return r.callee, r.key, r.err
	}
	callee, key, err := p.calleeKey(module, meta, tok)
	if !errors.Is(err, errNotLoaded) {
		tw.mu.Lock()
		if tw.answers == nil {
			tw.answers = map[[2]uint64]calleeResult{}
		}
		tw.answers[k] = calleeResult{callee, key, err}
		tw.mu.Unlock()
	}
	return callee, key, err
}

// calleeResult is what calleeKey said of a token.
type calleeResult struct {
	callee flows.Callee
	key    uint64
	err    error
}

// calleeKey is the definition key of the method a call's token in module
// names. A virtual callee may be an override elsewhere: its Enter could
// not be told, so it has none. A callee of another module whose type is
// not loaded yet is returned with errNotLoaded.
func (p *profiler) calleeKey(module uint64, meta clr.Metadata, tok uint32) (flows.Callee, uint64, error) {
	callee, err := flows.CallTarget(meta, tok)
	if err != nil {
		return callee, 0, err
	}
	md := callee.Def
	if md == 0 {
		// Another module's: the first loaded module defining its type, as
		// the runtime binds a name.
		mod, td, ok := p.planner.FindDef(callee.Type)
		if !ok {
			return callee, 0, errNotLoaded
		}
		other, err := p.moduleMeta(mod)
		if err != nil {
			return callee, 0, err
		}
		if md, err = overloadOf(other, td, callee); err != nil {
			return callee, 0, err
		}
		module, meta = mod, other
	}
	if a, err := meta.MethodAttrs(md); err != nil || a&mdVirtual != 0 {
		return callee, 0, fmt.Errorf("callee %#x: virtual, or its attributes unread (%v)", md, err)
	}
	return callee, defKey(module, md), nil
}

// moduleMeta is a loaded module's metadata.
func (p *profiler) moduleMeta(mod uint64) (clr.Metadata, error) {
	info, err := p.resolver.ModuleInfo(mod)
	if err != nil {
		return clr.Metadata{}, err
	}
	m, ok := info.Meta.(clr.Metadata)
	if !ok {
		return clr.Metadata{}, fmt.Errorf("module %#x: no metadata", mod)
	}
	return m, nil
}

// overloadOf is the MethodDef of TypeDef td that callee names.
func overloadOf(meta clr.Metadata, td uint32, callee flows.Callee) (uint32, error) {
	cands, err := meta.MethodsNamed(td, callee.Name)
	if err != nil {
		return 0, err
	}
	sigs := make([][]byte, len(cands))
	for i, c := range cands {
		if _, _, sigs[i], err = meta.MethodProps(c); err != nil {
			return 0, err
		}
	}
	i, ok := callee.Overload(sigs)
	if !ok {
		return 0, fmt.Errorf("callee %s.%s: %d overloads, none or several with %d parameters",
			strings.Join(callee.Type, "+"), callee.Name, len(cands), callee.Params)
	}
	return cands[i], nil
}

// tailWait is a function whose tail callees' keys are not all known.
type tailWait struct {
	c       *C.clr_fn
	keys    []uint64       // 0 where not known yet
	later   []flows.Callee // where not known yet: the callee, by names
	refused bool           // a callee named later is virtual: the frame never waits
}

// tailWaits holds the functions waiting for their tail callees of other
// modules to be compiled, by the callees' method names. Functions are
// compiled on any of the runtime's threads.
type tailWaits struct {
	mu     sync.Mutex
	byName map[string][]*tailWait
	// answers: calleeKey's answers, by module and token.
	answers map[[2]uint64]calleeResult
}

// add publishes w's keys, or keeps it until its callees are named.
func (tw *tailWaits) add(w *tailWait) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if !w.anyLater() {
		w.publish()
		return
	}
	if tw.byName == nil {
		tw.byName = map[string][]*tailWait{}
	}
	for i, c := range w.later {
		if c.Name != "" && !slices.ContainsFunc(w.later[:i], func(p flows.Callee) bool { return p.Name == c.Name }) {
			tw.byName[c.Name] = append(tw.byName[c.Name], w) // once per name
		}
	}
}

// named gives the functions waiting for the method just compiled (token of
// module, named name, its definition key) its key, and publishes those that
// wait for no other.
func (tw *tailWaits) named(module uint64, token uint32, meta clr.Metadata, name string, key uint64) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	waits := tw.byName[name]
	if len(waits) == 0 {
		return
	}
	_, owner, sig, err := meta.MethodProps(token)
	if err != nil {
		return
	}
	chain, ok := flows.TypeDefNames(meta, owner)
	if !ok {
		return
	}
	// A virtual callee is refused here as calleeKey refuses it.
	attrs, err := meta.MethodAttrs(token)
	virtual := err != nil || attrs&mdVirtual != 0
	kept := waits[:0]
	for _, w := range waits {
		for i, c := range w.later {
			if c.Name == "" || !c.Names(chain, name, sig) {
				continue
			}
			// The overloads of as many parameters are not told apart.
			if md, err := overloadOf(meta, owner, c); err != nil || md != token {
				continue
			}
			w.keys[i], w.later[i] = key, flows.Callee{}
			w.refused = w.refused || virtual
		}
		if w.waiting(name) {
			kept = append(kept, w)
		} else if !w.anyLater() {
			w.publish()
		}
	}
	if len(kept) == 0 {
		delete(tw.byName, name)
	} else {
		tw.byName[name] = kept
	}
}

// waiting reports whether w waits for a callee of this name.
func (w *tailWait) waiting(name string) bool {
	for _, c := range w.later {
		if c.Name == name {
			return true
		}
	}
	return false
}

// anyLater reports whether w waits for any callee.
func (w *tailWait) anyLater() bool {
	for _, c := range w.later {
		if c.Name != "" {
			return true
		}
	}
	return false
}

// publish writes the keys into the hooks' block: the hooks read them as
// they are (each an aligned word); a frame waits only when every one of
// its callees is hooked.
func (w *tailWait) publish() {
	if w.refused {
		return
	}
	for i, k := range w.keys {
		w.c.tail_keys[i] = C.uint64_t(k)
	}
}

// defKey identifies a method's definition: its module and MethodDef.
func defKey(module uint64, token uint32) uint64 {
	return module*0x9e3779b97f4a7c15 ^ uint64(token)
}
