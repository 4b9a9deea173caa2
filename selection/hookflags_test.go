package selection

import (
	"testing"

	"github.com/clrotel/clrotel/flows"
)

func TestRoleFlags(t *testing.T) {
	for _, c := range []struct {
		role flows.Role
		loop bool
		want Flags
	}{
		{0, false, 0},
		{flows.Kickoff, false, FnAsyncKickoff},
		{flows.MoveNext, true, FnAsyncMoveNext | FnAsyncLoop},
		{flows.Complete, false, FnAsyncComplete},
		{flows.Kickoff | flows.ClosureBody, false, FnAsyncKickoff | FnClosureBody}, // an async lambda
		{flows.ClosureCtor, false, FnClosureCtor},
		{flows.MoveNext | flows.IterEnd, false, FnAsyncMoveNext | FnIterEnd},   // an iterator's Dispose
		{flows.MoveNext | flows.IterStep, false, FnAsyncMoveNext | FnIterStep}, // its MoveNext
		{flows.Plumbing, false, FnPlumbing},                                    // its Current
	} {
		if got := RoleFlags(c.role, c.loop); got != c.want {
			t.Errorf("RoleFlags(%b, %v) = %#x, want %#x", c.role, c.loop, got, c.want)
		}
	}
}

func TestHookedFlags(t *testing.T) {
	for _, c := range []struct {
		name string
		h    Hooked
		want Flags
	}{
		{"plain", Hooked{}, FnSelected},
		{"shared generic", Hooked{Shared: true}, FnSelected | FnSharedGeneric},
		{"exempt entry", Hooked{Traits: Traits{FoldExempt: true, Entry: true, Capture: true}}, FnSelected | FnFoldExempt | FnEntry},
		{"async step", Hooked{Shared: true, Role: FnAsyncMoveNext | FnAsyncLoop}, FnSelected | FnSharedGeneric | FnAsyncMoveNext | FnAsyncLoop},
		{"a closure's constructor", Hooked{Plumbing: true, Role: FnClosureCtor}, FnSelected | FnPlumbing | FnClosureCtor},
		{"Activity.Stop: nothing else", Hooked{ActivityStop: true, Shared: true, Role: FnAsyncKickoff, Traits: Traits{Entry: true}},
			FnSelected | FnActivityStop},
	} {
		if got := c.h.Flags(); got != c.want {
			t.Errorf("%s: %#x, want %#x", c.name, got, c.want)
		}
	}
}

// Every flag is one bit of its own but the unions, and those are made of
// flags named here.
func TestFlagBits(t *testing.T) {
	bits := []Flags{FnSelected, FnSharedGeneric, FnFolded, FnFoldExempt, FnAsyncKickoff, FnAsyncMoveNext, FnAsyncComplete,
		FnClosureCtor, FnClosureBody, FnReJIT, FnUnhooked, FnActivityStop, FnQueue, FnQueueUnsafe, FnIterEnd, FnWorkMake,
		FnWorkRun, FnWorkRepeat, FnCompile, FnPending, FnEntry, FnWorkThread, FnAsyncLoop, FnPlumbing, FnIterStep, FnWorkPromise}
	var all Flags
	for _, b := range bits {
		if b == 0 || b&(b-1) != 0 || all&b != 0 {
			t.Errorf("%#x: not a bit of its own", b)
		}
		all |= b
	}
	for _, u := range []Flags{FnAsync, FnLinked, FnNotACall, FnNeverFolded} {
		if u&^all != 0 {
			t.Errorf("%#x: holds bits no flag names", u)
		}
	}
}

// The compiler's plumbing is hooked only for a part in a flow.
func TestHookedHooks(t *testing.T) {
	for _, c := range []struct {
		name string
		h    Hooked
		want bool
	}{
		{"plain", Hooked{}, true},
		{"a display class's constructor", Hooked{Plumbing: true, Role: FnClosureCtor}, true},
		{"a traced iterator's constructor", Hooked{Plumbing: true, Role: FnAsyncMoveNext}, true},
		{"the lambda cache's constructor", Hooked{Plumbing: true}, false},
		{"a traced iterator's Current", Hooked{Role: FnPlumbing}, false},
	} {
		if got := c.h.Hooks(); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
