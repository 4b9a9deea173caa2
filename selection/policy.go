package selection

import (
	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/scope"
)

// Settings are the user's selection settings (package config).
type Settings struct {
	Include, Exclude []string // CLROTEL_INCLUDE, CLROTEL_EXCLUDE
	// DefaultExclude is excluded as well when Include is empty (own code
	// only): the app's compiler-generated and hosting noise.
	DefaultExclude []string
	FoldExempt     []string // never folded (CLROTEL_FOLD_EXEMPT)
	Entry          []string // begin a trace of their own (CLROTEL_ENTRY)
	CaptureExclude []string // traced without values (CLROTEL_CAPTURE_EXCLUDE)
	Capture        bool     // values are captured at all (CLROTEL_CAPTURE)
}

// Policy decides what is traced. The zero Policy traces the app's own
// code, without values.
type Policy struct {
	include, exclude                  naming.Patterns
	foldExempt, entry, captureExclude naming.Patterns
	capture                           bool
}

// New returns the policy of s.
func New(s Settings) Policy {
	p := Policy{
		include: s.Include, exclude: s.Exclude,
		foldExempt: s.FoldExempt, entry: s.Entry, captureExclude: s.CaptureExclude, capture: s.Capture,
	}
	if len(s.Include) == 0 {
		p.exclude = append(append(naming.Patterns{}, s.DefaultExclude...), s.Exclude...)
	}
	return p
}

// Selected decides from a method's assembly and Namespace.Type.Method name.
func (p Policy) Selected(assembly, name string) bool {
	if p.OwnCodeOnly() && scope.FrameworkAssembly(assembly) {
		return false
	}
	if len(p.include) > 0 && !p.include.MatchAny(name) {
		return false
	}
	return !p.exclude.MatchAny(name)
}

// OwnCodeOnly reports whether no include was given: the app's own
// assemblies are traced, the runtime's are not.
func (p Policy) OwnCodeOnly() bool { return len(p.include) == 0 }

// Include returns the include patterns.
func (p Policy) Include() naming.Patterns { return p.include }

// Traits are what the hooks do with a traced method.
type Traits struct {
	FoldExempt bool // its calls are never folded into their caller's span
	Entry      bool // a call of it outside a request begins a trace of its own
	Capture    bool // its arguments and return value are captured
}

// Traits decides for the traced method with the selection name name.
// A step of an async state machine makes no span: nothing of it is shown,
// so none of its values are captured.
func (p Policy) Traits(name string, step bool) Traits {
	return Traits{
		FoldExempt: p.foldExempt.MatchAny(name),
		Entry:      p.entry.MatchAny(name),
		Capture:    p.capture && !step && !p.captureExclude.MatchAny(name),
	}
}

// diagnosticsAssembly holds System.Diagnostics.Activity (.NET Core 3.1
// and .NET 8).
const diagnosticsAssembly = "System.Diagnostics.DiagnosticSource"

// DiagnosticsAssembly reports whether assembly is Activity's: its code
// running is the moment to learn how to read Activity.Current.
func DiagnosticsAssembly(assembly string) bool { return assembly == diagnosticsAssembly }

// IsActivityStop tells System.Diagnostics.Activity.Stop, hooked whatever the
// selection: its call exports a span for an Activity nothing else exports.
func IsActivityStop(assembly, name string) bool {
	return assembly == diagnosticsAssembly && name == "System.Diagnostics.Activity.Stop"
}
