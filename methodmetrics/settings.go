package methodmetrics

import "github.com/clrotel/clrotel/naming"

// Settings say which methods get metrics (CLROTEL_METRICS,
// CLROTEL_METRICS_INCLUDE; YAML metrics).
type Settings struct {
	// Enabled: methods that fold are exported, and those Include names.
	Enabled bool
	// Include are globs over Namespace.Type.Method: these methods are
	// exported whether or not they fold, and when they fold they keep their
	// hooks (no re-JIT), so their counts stay exact.
	Include []string
	// Namespace prefixes the metric names (default DefaultNamespace, the
	// spanmetrics connector's).
	Namespace string
}

// DefaultNamespace is the spanmetrics connector's default namespace.
const DefaultNamespace = "traces.span.metrics"

// DefaultSettings is the setting with nothing set: on, for methods that fold.
func DefaultSettings() Settings {
	return Settings{Enabled: true, Namespace: DefaultNamespace}
}

// Wanted reports whether the user named the method (Namespace.Type.Method):
// it is exported whether or not it folds.
func (s Settings) Wanted(function string) bool {
	return s.Enabled && naming.Patterns(s.Include).MatchAny(function)
}

// KeepHooks reports whether a folded method must keep its hooks rather
// than be re-JIT-compiled without them: its metrics were asked for by name,
// and a re-JIT-compiled method's calls are no longer seen. A folded call
// with hooks costs a few nanoseconds (docs/performance.md); without, none.
func (s Settings) KeepHooks(function string) bool { return s.Wanted(function) }
