package main

// reportUnmatched logs, at exit, the no-code targets that shaped no span.
func (p *profiler) reportUnmatched() {
	for _, tg := range p.tr.UnmatchedTargets() {
		p.log.Warnf("no-code target at %s:%d (%s.%s) shaped no span: no method it selects was called while traced (check its names and signature)", tg.Path, tg.Line, tg.Type, tg.Method)
	}
}
