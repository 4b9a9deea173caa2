package main

import (
	"os"

	"github.com/clrotel/clrotel/shaping"
)

// loadShapes reads the no-code targets of the OpenTelemetry configuration
// file, if one is named (package shaping decides). A file with problems
// is not used: they are logged, each with its line and column, and the app
// runs traced, its spans unshaped.
func (p *profiler) loadShapes() *shaping.Rules {
	path := p.cfg.NoCodeFile
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		p.log.Errorf("no-code configuration: %v; spans are not shaped", err)
		return nil
	}
	rules, err := shaping.Parse(path, data)
	if err != nil {
		p.log.Errorf("no-code configuration %s is not used (spans are not shaped; the app runs traced):\n%v", path, err)
		return nil
	}
	p.log.Infof("no-code configuration %s: %d targets", path, len(rules.Targets))
	return rules
}

// reportUnmatched logs, at exit, the no-code targets that shaped no span.
func (p *profiler) reportUnmatched() {
	for _, tg := range p.drain.tr.UnmatchedTargets() {
		p.log.Warnf("no-code target at %s:%d (%s.%s) shaped no span: no method it selects was called while traced (check its names and signature)", p.cfg.NoCodeFile, tg.Line, tg.Type, tg.Method)
	}
}
