// Package folding decides which methods are folded: called so often, and
// so briefly every time, that a span per call is noise and costs more than
// the call. A folded method's calls under a traced span make no span of
// their own; the hooks (profiler/fold.c) count them, with their time, into
// the nearest traced ancestor, which reports them as aggregate attributes.
//
// The package owns the rule's settings (how many calls, how short, which
// methods are exempt), the rule itself as a pure function (Rule.Judge,
// BudgetFolds, Rule.ReJITs: the reference the hooks' C copy is checked
// against, profiler/internal/cfold), and how folded calls read on a span
// and in the exit summary. The hooks apply the rule (profiler/fold.c). It
// must not touch the runtime or the C side.
//
// It also decides when folded methods are re-JIT-compiled without hooks
// (ReJIT, Batcher): the profiler hands the batches to its ReJIT thread
// (profiler/rejit.c), after which a folded call costs what an untraced
// call costs and is no longer counted (KeyApproximate, ReJITNote), and
// which functions fold together (Groups: an iterator's, judged by its
// MoveNext's steps in the hooks).
package folding
