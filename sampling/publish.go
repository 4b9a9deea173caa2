package sampling

import "sync"

// Blocks are the hook's strategy blocks (profiler/strategy.c), of some
// handle type B whose zero value is no block.
type Blocks[B comparable] interface {
	// Alloc reserves a block for n functions; the zero B when there is no
	// memory for it.
	Alloc(n int) B
	// Fill writes hb into b.
	Fill(b B, hb HookBlock)
	// Publish makes b the hook's block and returns the one it replaced
	// (zero for none).
	Publish(b B) (old B)
	// Quiesced reports whether every thread that might still decide with
	// a replaced block has moved on, after waiting a bounded time.
	Quiesced() bool
	// Free releases b.
	Free(b B)
	// Bytes is b's size, for the warning when it cannot be freed.
	Bytes(b B) int
}

// Publisher keeps the hook's strategy block in step with the sampling in
// force: each change (a reloaded file, a remote strategy) is resolved per
// method into a new block, published with one pointer exchange, and the
// block it replaces is freed once no thread can be deciding with it.
type Publisher[B comparable] struct {
	Blocks Blocks[B]
	// Functions runs fn under the function table's lock; names lists
	// every function's names, by index. A method compiled meanwhile is
	// resolved from the same state (Setting is called under that lock too).
	Functions func(fn func(names func() []MethodNames))
	Errorf    func(format string, args ...any)
	Warnf     func(format string, args ...any)

	live Live       // guarded by the function table's lock
	mu   sync.Mutex // one publish (and its reclaim) at a time
}

// Setting resolves a new function's sampling; the caller holds the
// function table's lock.
func (p *Publisher[B]) Setting(m MethodNames) MethodSetting { return p.live.Setting(m) }

// Config is the sampling configuration in force.
func (p *Publisher[B]) Config() (c Config) {
	p.Functions(func(func() []MethodNames) { c = p.live.Config })
	return c
}

// Reload takes a (re)loaded configuration live.
func (p *Publisher[B]) Reload(c Config) {
	p.Publish(func() bool { p.live.Reload(c); return true })
}

// Strategy takes a remote strategy live, unless live reports that its
// poller has stopped meanwhile (a late answer).
func (p *Publisher[B]) Strategy(st Strategy, live func() bool) {
	p.Publish(func() bool {
		if !live() {
			return false
		}
		p.live.Strategy = &st
		return true
	})
}

// Publish applies update to the sampling in force, under the function
// table's lock, and installs the result as the hook's block. update
// returns false to leave everything as it is; with no memory for a block,
// update is not applied and the previous settings stay in force.
func (p *Publisher[B]) Publish(update func() bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var zero, old B
	p.Functions(func(all func() []MethodNames) {
		names := all()
		blk := p.Blocks.Alloc(len(names))
		if blk == zero {
			p.Errorf("sampling: out of memory for a strategy block; the previous settings stay in force")
			return
		}
		if !update() {
			p.Blocks.Free(blk)
			return
		}
		p.Blocks.Fill(blk, p.live.Block(names))
		old = p.Blocks.Publish(blk)
	})
	if old == zero {
		return
	}
	// A thread stuck mid-decision (the runtime suspended it) leaves the
	// block allocated: a bounded leak, reported.
	if !p.Blocks.Quiesced() {
		p.Warnf("sampling: a thread has been deciding for 10 s; the replaced strategy block (%d bytes) stays allocated", p.Blocks.Bytes(old))
		return
	}
	p.Blocks.Free(old)
}
