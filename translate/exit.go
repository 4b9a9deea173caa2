package translate

import (
	"time"

	"github.com/clrotel/clrotel/folding"
	"github.com/clrotel/clrotel/otelbridge"
	"go.opentelemetry.io/otel/attribute"
)

// OpenFold is what the hooks folded so far into one open span.
type OpenFold struct {
	Calls uint32
	Ns    uint64
}

// AbandonAtExit ends a thread's open spans at exit, innermost first, each
// with what was folded into it so far: no exit record will bring it.
// folds are the slot's recorded frames, outermost first, one per open
// span; if the two disagree nothing is ended (the caller's Abandon then
// ends them plainly). approximate: a folded method was re-JIT-compiled
// without hooks, so the counts stop short.
func (t *Translator) AbandonAtExit(th *otelbridge.Thread, now int64, folds []OpenFold, approximate bool) {
	open := th.Depth()
	if open == 0 || len(folds) != open {
		return
	}
	for k := open - 1; k >= 0; k-- {
		var attrs []attribute.KeyValue
		if f := folds[k]; f.Calls > 0 {
			t.Bridge.Fold(th, folding.Span{Calls: uint64(f.Calls), Time: time.Duration(f.Ns)})
			if approximate {
				attrs = append(attrs, folding.KeyApproximate.Bool(true))
			}
		}
		t.Bridge.Exit(th, now, otelbridge.ExitAbandon, attrs...)
	}
}
