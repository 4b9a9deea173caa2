package planning

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/clrotel/clrotel/values"
)

// Options configure a Planner.
type Options struct {
	// Redact says which argument, field and static names are sensitive:
	// their values are not read at all.
	Redact *values.Redactor
	// Statics are the static fields to record at the entry of each method
	// of their type, as "Namespace.Type.Field".
	Statics []string
	// Messages: System.Exception's layout is looked up for the hooks to
	// read exception messages.
	Messages bool
	// OldReturns: the runtime misreports structs returned in registers
	// (before .NET 6 on SysV, up to 16 bytes: the second register is not
	// saved, floating-point halves are elsewhere), so such returns, and
	// type parameters that may stand for one, are not read.
	OldReturns bool
	Log        Logger
}

// A Planner builds plans and remembers what it learns of classes. It is
// safe for concurrent use; plans are built one at a time.
type Planner struct {
	src    TypeSource
	sink   Sink
	log    Logger
	redact *values.Redactor
	// statics: type name -> the static fields to record.
	statics    map[string][]string
	messages   bool
	oldReturns bool

	mu      sync.Mutex
	classes map[uint64]*classEntry
	// gen counts the classes planned: what Class answers changes only
	// with it (values.Versioned).
	gen      atomic.Uint64
	building map[uint64]bool
	// tokenClasses: (module, TypeDef or TypeRef) -> ClassID: a
	// non-generic type's class is fixed while its module is loaded.
	// Bounded by the loaded TypeDefs and TypeRefs.
	tokenClasses map[[2]uint64]uint64
	// instances: (module, generic TypeDef, type arguments) -> ClassID.
	// Bounded by the instantiations that planned signatures name.
	instances map[string]uint64
	// defRefs: (module, TypeRef) -> the module and TypeDef it names.
	defRefs map[[2]uint64][2]uint64
	// known: ClassID -> its class and own fields (classfacts.go).
	// Bounded by the classes planned and their parents.
	known map[uint64]*classFacts
	// defClasses: (module, TypeDef) -> ClassID. Bounded by the loaded
	// TypeDefs.
	defClasses map[[2]uint64]uint64
	// valueTypes: (module, TypeDef) -> whether it is a value type.
	// Bounded by the loaded TypeDefs.
	valueTypes map[[2]uint64]bool
	knownDone  bool
	// jitThread is set while a method's plan is built, on the runtime
	// thread that JIT-compiles it: only there may a token be turned into
	// a class when that could load the type.
	jitThread bool

	// defs: a type's name chain (joined by NULs) -> the first loaded
	// module defining it and the TypeDef, shared by every module. A name
	// not found is not remembered (its module may load later). defsMu
	// guards it: FindDef is called without mu.
	defsMu sync.Mutex
	defs   map[string][2]uint64
}

// classEntry is what the planner knows of one ClassID.
type classEntry struct {
	obj   *Class // object, string, array or box plan (published)
	strct *Class // value types: the inline layout
	info  values.ClassInfo

	valueType bool
	primKind  values.Kind // primitive value types: System.Int32 -> KindI4
	enumKind  values.Kind // enums: the underlying kind
	size      uint32      // value types: the value's size
}

// New returns a Planner asking src and publishing to sink.
func New(src TypeSource, sink Sink, o Options) *Planner {
	byType := map[string][]string{}
	for _, st := range o.Statics {
		if i := strings.LastIndexByte(st, '.'); i > 0 {
			byType[st[:i]] = append(byType[st[:i]], st[i+1:])
		}
	}
	redact := o.Redact
	if redact == nil {
		redact = values.NewRedactor(nil)
	}
	log := o.Log
	if log == nil {
		log = nopLogger{}
	}
	return &Planner{
		src: src, sink: sink, log: log, redact: redact,
		statics: byType, messages: o.Messages, oldReturns: o.OldReturns,
		classes:      map[uint64]*classEntry{},
		building:     map[uint64]bool{},
		tokenClasses: map[[2]uint64]uint64{},
		instances:    map[string]uint64{},
		defRefs:      map[[2]uint64][2]uint64{},
		known:        map[uint64]*classFacts{},
		defClasses:   map[[2]uint64]uint64{},
		valueTypes:   map[[2]uint64]bool{},
		defs:         map[string][2]uint64{},
	}
}

type nopLogger struct{}

func (nopLogger) Debugf(string, ...any) {}
func (nopLogger) Warnf(string, ...any)  {}

// SetOldReturns sets Options.OldReturns, for a runtime whose version is
// known only after the Planner is made.
func (pl *Planner) SetOldReturns(on bool) {
	pl.mu.Lock()
	pl.oldReturns = on
	pl.mu.Unlock()
}

// Plan builds the plan of class cid, if it has none, from a thread that
// compiles no method: nothing that would load a type is asked.
func (pl *Planner) Plan(cid uint64) error {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	_, err := pl.entry(cid, 0)
	return err
}

// Generation implements values.Versioned: it changes whenever a class is
// planned, which is when what Class answers for it changes.
func (pl *Planner) Generation() uint64 { return pl.gen.Load() }

// Planned reports whether class cid has been planned.
func (pl *Planner) Planned(cid uint64) bool {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	return pl.classes[cid] != nil
}

// Len is the number of classes planned.
func (pl *Planner) Len() int {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	return len(pl.classes)
}

// Class implements values.Classes: what rendering knows of class id, from
// its plan or, for a class not planned, from its name.
func (pl *Planner) Class(id uint64) (values.ClassInfo, bool) {
	pl.mu.Lock()
	e := pl.classes[id]
	pl.mu.Unlock()
	if e != nil {
		return e.info, true
	}
	if name := pl.src.ClassName(id); name != "?" {
		ci := values.ClassInfo{Name: name}
		if i := strings.LastIndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
			ci.Elem = name[:i]
		}
		return ci, true
	}
	return values.ClassInfo{}, false
}
