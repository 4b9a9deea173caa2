package selection

import "testing"

func TestRoute(t *testing.T) {
	const diag, stop = "System.Diagnostics.DiagnosticSource", "System.Diagnostics.Activity.Stop"
	own := New(Settings{Exclude: []string{"Acme.Noise.*"}})
	acme := New(Settings{Include: []string{"Acme.*"}})
	for _, c := range []struct {
		name        string
		p           Policy
		asm, method string
		special     Special
		want        Route
	}{
		{"own code", own, "Acme", "Acme.Shop.Add", SpecialNone, Traced},
		{"own code excluded", own, "Acme", "Acme.Noise.Tick", SpecialNone, Untraced},
		{"framework, own code only", own, "System.Private.CoreLib", "System.String.Concat", SpecialNone, Untraced},
		{"included", acme, "Acme", "Acme.Shop.Add", SpecialNone, Traced},
		{"not included", acme, "Other", "Other.Run", SpecialNone, Untraced},
		// Hooked whatever the selection.
		{"Activity.Stop", acme, diag, stop, SpecialNone, ActivityStop},
		{"Activity.Start is not", acme, diag, "System.Diagnostics.Activity.Start", SpecialNone, Untraced},
		{"Stop elsewhere is not", own, "Acme", stop, SpecialNone, Traced},
		{"a builder's completion", acme, "System.Private.CoreLib", "System.Runtime.CompilerServices.AsyncTaskMethodBuilder.SetResult", SpecialBuilder, Traced},
		{"queuing", acme, "System.Private.CoreLib", "System.Threading.ThreadPool.QueueUserWorkItem", SpecialQueue, Queue},
		{"a queuing method selected too", New(Settings{Include: []string{"System.Threading.*"}}), "System.Private.CoreLib", "System.Threading.ThreadPool.QueueUserWorkItem", SpecialQueue, Queue},
		{"a work item's maker", acme, "System.Private.CoreLib", "System.Threading.Thread.Start", SpecialWorkMake, Work},
		{"a timer's", acme, "System.Private.CoreLib", "System.Threading.TimerQueueTimer..ctor", SpecialWorkMakeRepeat, Work},
		{"a work item's run", acme, "System.Private.CoreLib", "System.Threading.ExecutionContext.RunInternal", SpecialWorkRun, Work},
		{"a repeated run", acme, "System.Private.CoreLib", "System.Threading.TimerQueueTimer.Fire", SpecialWorkRepeat, Work},
		{"the JIT entry", acme, "System.Private.CoreLib", "System.Runtime.CompilerServices.RuntimeHelpers.PrepareMethod", SpecialCompile, Compile},
	} {
		if got := c.p.Route(c.asm, c.method, c.special); got != c.want {
			t.Errorf("%s: Route(%q, %q, %d) = %d, want %d", c.name, c.asm, c.method, c.special, got, c.want)
		}
	}
}
