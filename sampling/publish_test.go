package sampling

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// fakeBlocks records what the publisher does with the hook's blocks; a
// block is its number, 0 none.
type fakeBlocks struct {
	next     int
	noMemory bool
	stuck    bool
	current  int
	filled   map[int]HookBlock
	freed    []int
}

func (f *fakeBlocks) Alloc(n int) int {
	if f.noMemory {
		return 0
	}
	f.next++
	return f.next
}
func (f *fakeBlocks) Fill(b int, hb HookBlock) { f.filled[b] = hb }
func (f *fakeBlocks) Publish(b int) int        { old := f.current; f.current = b; return old }
func (f *fakeBlocks) Quiesced() bool           { return !f.stuck }
func (f *fakeBlocks) Free(b int)               { f.freed = append(f.freed, b) }
func (f *fakeBlocks) Bytes(b int) int          { return 64 + 32*len(f.filled[b].Methods) }

func TestPublisher(t *testing.T) {
	cart := MethodNames{Select: "Acme.Cart.Add", Span: "Shop.dll!Acme.Cart.Add()", Function: "Acme.Cart.Add"}
	remote := Default()
	remote.Sampler, remote.Remote.InitialRate = ParentBasedJaegerRemote, 0.5
	always := Config{Sampler: AlwaysOn, Ratio: 1}
	cases := []struct {
		name       string
		noMemory   bool
		stuck      bool
		act        func(p *Publisher[int])
		wantBlocks int // blocks published in all
		wantFreed  []int
		wantLog    string
		wantConfig Config
	}{
		{name: "first block replaces none", act: func(p *Publisher[int]) { p.Reload(always) },
			wantBlocks: 1, wantConfig: always},
		{name: "second block frees the first", act: func(p *Publisher[int]) { p.Reload(always); p.Reload(remote) },
			wantBlocks: 2, wantFreed: []int{1}, wantConfig: remote},
		{name: "a stuck thread keeps the replaced block", stuck: true,
			act:        func(p *Publisher[int]) { p.Reload(always); p.Reload(remote) },
			wantBlocks: 2, wantLog: "warn: sampling: a thread has been deciding for 10 s; the replaced strategy block (96 bytes) stays allocated", wantConfig: remote},
		{name: "no memory: nothing applied", noMemory: true, act: func(p *Publisher[int]) { p.Reload(always) },
			wantLog: "error: sampling: out of memory for a strategy block; the previous settings stay in force"},
		{name: "a stopped poller's late strategy is dropped", act: func(p *Publisher[int]) {
			p.Reload(remote)
			p.Strategy(Strategy{Probability: 1}, func() bool { return false })
		}, wantBlocks: 1, wantFreed: []int{2}, wantConfig: remote},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeBlocks{noMemory: c.noMemory, stuck: c.stuck, filled: map[int]HookBlock{}}
			var log []string
			logf := func(level string) func(string, ...any) {
				return func(format string, args ...any) { log = append(log, level+": "+fmt.Sprintf(format, args...)) }
			}
			p := &Publisher[int]{Blocks: f, Errorf: logf("error"), Warnf: logf("warn"),
				Functions: func(fn func(func() []MethodNames)) { fn(func() []MethodNames { return []MethodNames{cart} }) }}
			c.act(p)
			if len(f.filled) != c.wantBlocks {
				t.Errorf("%d blocks published, want %d", len(f.filled), c.wantBlocks)
			}
			if fmt.Sprint(f.freed) != fmt.Sprint(c.wantFreed) {
				t.Errorf("freed %v, want %v", f.freed, c.wantFreed)
			}
			if got := strings.Join(log, "\n"); got != c.wantLog {
				t.Errorf("log %q, want %q", got, c.wantLog)
			}
			if got := p.Config(); !reflect.DeepEqual(got, c.wantConfig) {
				t.Errorf("config %+v, want %+v", got, c.wantConfig)
			}
		})
	}
}

func TestPublisherStrategy(t *testing.T) {
	cart := MethodNames{Select: "Acme.Cart.Add", Span: "Shop.dll!Acme.Cart.Add()", Function: "Acme.Cart.Add"}
	remote := Default()
	remote.Sampler, remote.Remote.InitialRate = ParentBasedJaegerRemote, 0.5
	f := &fakeBlocks{filled: map[int]HookBlock{}}
	p := &Publisher[int]{Blocks: f, Functions: func(fn func(func() []MethodNames)) { fn(func() []MethodNames { return []MethodNames{cart} }) }}
	p.Reload(remote)
	if got := p.Setting(cart).Bound; got != 1<<62 {
		t.Fatalf("initial rate bound %#x", got)
	}
	p.Strategy(Strategy{Probability: 0.25, Operations: map[string]float64{cart.Span: 0}}, func() bool { return true })
	if got := f.filled[f.current]; got.Gen != 2 || got.Methods[0].Bound != 0 {
		t.Errorf("strategy block %+v, want generation 2 with the operation's bound 0", got)
	}
	if got := p.Setting(cart).Bound; got != 0 {
		t.Errorf("Setting after the strategy: bound %#x, want 0", got)
	}
}
