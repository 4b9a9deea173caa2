package main

import (
	"errors"

	"github.com/clrotel/clrotel/clr"
)

// MethodAt implements values.Methods: the method a delegate's code pointer
// leads to, as span names show it (Acme.Shop.Service.Count(Int32 extra)).
// Called by the renderer, off the app's threads. An address that names no
// method is retried later (its method may get compiled), not remembered.
func (pl *planner) MethodAt(code uint64) (string, bool) {
	name, err := pl.methods.Get(code, func() (name string, err error) {
		err = errNoMethod
		pl.gate.Do(func() {
			fid, ok := clr.CodeFunction(code)
			if !ok {
				return
			}
			m, merr := pl.p.resolver.Method(fid, 0, nil)
			if err = merr; err == nil {
				name = m.FunctionName + "(" + m.Params + ")"
			}
		})
		return name, err
	})
	return name, err == nil
}

var errNoMethod = errors.New("no method at this address")
