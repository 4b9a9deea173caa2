package translate

import (
	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/otelbridge"
	"github.com/clrotel/clrotel/values"
)

// Function is what the translator needs to know of a method the hooks
// record, by the index they record it with.
type Function struct {
	Method *otelbridge.Method // nil: the method's name is not known
	// Planned is set when the method's values are captured: Enter are
	// the slots of `this` (if any) and its arguments, Return of its return
	// value.
	Planned       bool
	Enter, Return []values.Slot
	// AsyncKickoff: the method starts an async state machine; the span
	// it begins is the async method's, ended when its task completes.
	AsyncKickoff bool
	// IterStep: an iterator's step. One whose record carries a span id
	// begins an enumeration its iterator method's call did not (a second
	// one, of an enumerator GetEnumerator made): an async span named after
	// that method (Methods.Enumeration), ended by the enumeration's end.
	IterStep bool
	// Meta is the method in the metadata form no-code targets select by
	// (nil: not known, or no targets).
	Meta *naming.MetaForm
}

// Methods answers for the methods and classes records name. Its methods
// are called from the translator's goroutine, and may block briefly.
type Methods interface {
	// Function returns the method the hooks record as index i, or false
	// when there is none.
	Function(i uint32) (Function, bool)
	// Instantiation names the exact instantiation of shared generic code
	// (method i called on class with method type arguments typeArgs).
	Instantiation(i uint32, class uint64, typeArgs []uint64) *otelbridge.Method
	// Enumeration names an enumeration the iterator step i begins: its
	// iterator method, instantiated as the enumerator's exact class (from
	// the record of shared generic code; 0: the step's own) says.
	Enumeration(i uint32, class uint64) *otelbridge.Method
	// ClassName names a runtime class ("?" when it cannot).
	ClassName(class uint64) string
	// NeedPlan says that values of class were met with no plan to read
	// them: the planner makes one for the next calls.
	NeedPlan(class uint64)
}

// Logger takes the translator's diagnostics: corrupt records, unknown
// functions. They never reach the app.
type Logger interface {
	Debugf(format string, args ...any)
}
