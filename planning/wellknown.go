package planning

// Prepare plans, once, what the first traced call may need before any
// method's plan names it: String and the boxes of the primitive types
// (met as `object` arguments), and, with Options.Messages, where
// System.Exception keeps its message and inner exception. Asked before
// CoreLib's classes are loaded, it does nothing and is tried again at the
// next call.
func (pl *Planner) Prepare() {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.knownDone {
		return
	}
	if _, err := pl.FindType([]string{"System.String"}); err != nil {
		return
	}
	pl.knownDone = true
	if pl.messages {
		pl.exceptionLayout()
	}
	pl.wellKnownClasses()
}

// wellKnownClasses plans String and the primitive boxes. Called with mu held.
func (pl *Planner) wellKnownClasses() {
	names := []string{"String"}
	for n := range primitiveKinds {
		names = append(names, n)
	}
	for _, n := range names {
		if cid, err := pl.FindType([]string{"System." + n}); err == nil {
			_, _ = pl.entry(cid, 0)
		}
	}
}

// exceptionLayout finds System.Exception's _message and _innerException
// offsets, the same in every derived exception, and hands them to the sink.
func (pl *Planner) exceptionLayout() {
	cid, err := pl.FindType([]string{"System.Exception"})
	if err != nil {
		pl.log.Warnf("exception messages will not be read: %v", err)
		return
	}
	c, err := pl.src.Class(cid)
	if err != nil {
		return
	}
	layout, _, err := pl.src.Layout(cid)
	if err != nil {
		return
	}
	var msg, inner uint32
	for _, f := range layout {
		fp, err := pl.src.Field(c.Module, f.Token)
		switch {
		case err != nil:
		case fp.Name == "_message":
			msg = f.Offset
		case fp.Name == "_innerException":
			inner = f.Offset
		}
	}
	if msg == 0 {
		pl.log.Warnf("System.Exception has no _message field: exception messages will not be read")
	}
	pl.log.Debugf("System.Exception: _message at %d, _innerException at %d", msg, inner)
	if pl.sink != nil {
		pl.sink.ExceptionLayout(msg, inner)
	}
}
