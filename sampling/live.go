package sampling

// Live is the sampling in force: the configuration, the remote strategy
// (nil until the endpoint answers) and the generation of the last block
// made for the hook (profiler/strategy.c). Not safe for concurrent use:
// its holder locks it together with the function table, so that a method
// compiled while a block is built is resolved from the same state.
type Live struct {
	Config   Config
	Strategy *Strategy
	gen      uint64
}

// Reload takes a reloaded configuration live. Another remote endpoint's
// strategy is not known yet: the initial rate applies until it answers.
func (l *Live) Reload(c Config) {
	if c.Remote != l.Config.Remote {
		l.Strategy = nil
	}
	l.Config = c
}

// Setting is a method's sampling now (Config.Setting).
func (l *Live) Setting(m MethodNames) MethodSetting { return l.Config.Setting(m, l.Strategy) }

// HookBlock is a strategy block as the hook reads it: per function index,
// its bound and guaranteed rate; the service-wide limiters; whether a
// sampled parent decides.
type HookBlock struct {
	Gen            uint64
	Methods        []HookMethod
	Strategy, Rate HookLimiter // Config.HookLimits
	ParentBased    bool
}

// HookMethod is one method's entry of a HookBlock.
type HookMethod struct {
	Bound      uint64
	LowerBound HookLimiter // MethodSetting.LowerBoundLimiter
}

// Block makes the next generation's block for the functions methods
// names, by index.
func (l *Live) Block(methods []MethodNames) HookBlock {
	l.gen++
	b := HookBlock{Gen: l.gen, Methods: make([]HookMethod, len(methods)), ParentBased: l.Config.ParentBased()}
	for i, m := range methods {
		s := l.Setting(m)
		b.Methods[i] = HookMethod{Bound: s.Bound, LowerBound: s.LowerBoundLimiter()}
	}
	b.Strategy, b.Rate = l.Config.HookLimits(l.Strategy)
	return b
}
