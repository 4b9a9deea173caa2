package config

// Hooks are the settings the C hooks start with (profiler/capture.h
// clr_capture_config, values.h clr_value_limits), worked out from the
// configuration once, at Initialize: the profiler only copies them.
type Hooks struct {
	MaxThreads    uint32 // capture slots
	RingSize      uint32 // a ring's capacity: resident part and burst space
	RingSoft      uint32 // its resident part
	StackCap      uint32 // frames per thread
	ValueBytes    uint32 // value bytes per record (0: no values)
	MaxTraceSpans uint32 // spans per trace before the rest fold (0: no limit)
	MaxValueSpans uint32 // spans per trace that carry values (0: no limit)

	FoldMinCalls uint32 // the folding rule (0: off)
	FoldMaxNs    uint64
	// ReJIT: folded methods are re-JIT-compiled without hooks, so the
	// runtime must be asked for ReJIT and the rule judges folded calls too.
	ReJIT bool

	ServingAfterNs  uint64 // the serving rule (0: off)
	ServingChildren uint32

	Values        ValueLimits
	PlanTableSize uint32 // class plans the hooks find (a power of two)
}

// ValueLimits bound what the value reader copies per record.
type ValueLimits struct {
	MaxBytes, MaxChars, MaxElems, MaxDepth, MaxFields uint32
}

// Hooks works the hooks' settings out. stringLayout: the runtime told
// where a string's length and characters are; without it no value is
// recorded (the reader could not copy a string).
func (c Config) Hooks(stringLayout bool) Hooks {
	fold := c.Fold.Hook()
	h := Hooks{
		MaxThreads: c.MaxThreads, RingSize: c.RingCapacity(), RingSoft: c.RingBytes, StackCap: c.MaxDepth,
		MaxTraceSpans: c.MaxSpansPerTrace, MaxValueSpans: c.MaxValueSpansPerTrace,
		FoldMinCalls: fold.MinCalls, FoldMaxNs: fold.MaxNs, ReJIT: fold.ReJIT,
		ServingAfterNs: uint64(c.Serving.After), ServingChildren: c.Serving.Children,
		Values:        ValueLimits{MaxBytes: c.ValueBytes, MaxChars: c.MaxString, MaxElems: c.MaxElements, MaxDepth: c.ValueDepth, MaxFields: c.MaxFields},
		PlanTableSize: 1 << 16,
	}
	if c.Capture && stringLayout {
		h.ValueBytes = c.ValueBytes
	}
	return h
}
