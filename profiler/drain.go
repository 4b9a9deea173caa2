package main

/*
#include "profiler.h"
*/
import "C"

import (
	"time"

	"github.com/clrotel/clrotel/draining"
	"github.com/clrotel/clrotel/hookstate"
	"github.com/clrotel/clrotel/translate"
)

// newDrainer wires package draining's Drainer to the hooks' slot table and
// counters, the translator and the bridge.
func newDrainer(p *profiler) *draining.Drainer {
	d := &draining.Drainer{Hooks: hookstate.Hooks{}, Spans: p.bridge, Infof: p.log.Infof, Debugf: p.log.Debugf, Warnf: p.log.Warnf,
		Report: p.logLines, Flush: p.pipe.ForceFlush, Flushed: func() { C.clr_abort_flushed() }}
	d.Walker = draining.Walker{Slots: hookstate.Slots{}, Behind: hookstate.SetBehind, Errorf: p.log.Errorf}
	p.tr = &translate.Translator{Bridge: p.bridge, Methods: methods{p}, Render: p.render, Log: p.log,
		KeepActivity: p.keepActivity, Threads: d.Threads, Shapes: p.shapes}
	d.Translator = p.tr
	d.Tables = p.tables
	d.Init(p.cfg.ExportCPU, time.Now())
	return d
}
