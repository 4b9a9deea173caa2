package main

import (
	"os"

	"github.com/clrotel/clrotel/shaping"
)

// loadShapes gathers the no-code targets of clrotel's own file (its
// no_code key, first) and of the OpenTelemetry configuration file, if one
// is named (package shaping decides). A file with problems is not used:
// they are logged, each with its line and column, and the app runs traced,
// its spans unshaped by it.
func (p *profiler) loadShapes() *shaping.Rules {
	rules := &shaping.Rules{}
	if p.cfg.NoCode != nil {
		rules.Targets = append(rules.Targets, p.cfg.NoCode.Targets...)
	}
	if path := p.cfg.NoCodeFile; path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			p.log.Errorf("no-code configuration: %v; its targets do not shape spans", err)
		} else if fr, err := shaping.Parse(path, data); err != nil {
			p.log.Errorf("no-code configuration %s is not used (its targets do not shape spans; the app runs traced):\n%v", path, err)
		} else {
			p.log.Infof("no-code configuration %s: %d targets", path, len(fr.Targets))
			rules.Targets = append(rules.Targets, fr.Targets...)
		}
	}
	if len(rules.Targets) == 0 {
		return nil
	}
	return rules
}

// reportUnmatched logs, at exit, the no-code targets that shaped no span.
func (p *profiler) reportUnmatched() {
	for _, tg := range p.drain.tr.UnmatchedTargets() {
		p.log.Warnf("no-code target at %s:%d (%s.%s) shaped no span: no method it selects was called while traced (check its names and signature)", tg.Path, tg.Line, tg.Type, tg.Method)
	}
}
