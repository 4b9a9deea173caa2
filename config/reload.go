package config

import (
	"bytes"
	"fmt"
	"reflect"
	"time"
)

// Watcher reloads the configuration file when its content changes. Only
// the sampling section applies to a running process: methods are selected
// and their capture planned when the JIT compiles them, and the rest is
// sized at start-up. A file with any problem is rejected whole; the
// settings in force stay.
type Watcher struct {
	path    string
	lookup  func(string) (string, bool)
	read    func(string) ([]byte, error)
	running Config // what the process started with
	last    []byte // the content last looked at
	readErr string // the last read failure, reported once
}

// NewWatcher watches path; running is the configuration in force, built
// from the file's current content.
func NewWatcher(path string, running Config, lookup func(string) (string, bool), read func(string) ([]byte, error)) *Watcher {
	w := &Watcher{path: path, lookup: lookup, read: read, running: running}
	w.last, _ = read(path)
	return w
}

// Reload is a new configuration to apply.
type Reload struct {
	// Config is the running configuration with the file's new sampling
	// section (the environment still wins over the file).
	Config Config
	// NotLive names the sections (YAML keys) that changed but cannot
	// apply until the next start.
	NotLive []string
}

// Check reads the file. It returns nil, nil when nothing changed; a
// *Reload for a good new content; and an error (FileErrors with lines for
// a bad file) when the change cannot be used. Each content is looked at
// once, so a bad file is reported once, not at every check.
func (w *Watcher) Check() (*Reload, error) {
	data, err := w.read(w.path)
	if err != nil {
		if msg := err.Error(); msg != w.readErr {
			w.readErr = msg
			return nil, fmt.Errorf("config file: %w; the settings in force stay", err)
		}
		return nil, nil
	}
	w.readErr = ""
	if bytes.Equal(data, w.last) {
		return nil, nil
	}
	w.last = data
	f, err := ParseFile(w.path, data)
	if err != nil {
		return nil, fmt.Errorf("config file %s changed but is not used; the settings in force stay:\n%w", w.path, err)
	}
	next := Default()
	f.apply(&next)
	next, _ = fromEnv(next, w.lookup) // the environment's own mistakes were reported at start
	out := w.running
	out.Sampling = next.Sampling
	return &Reload{Config: out, NotLive: notLive(w.running, next)}, nil
}

// notLive lists the sections of next, other than sampling, that differ
// from what is running.
func notLive(running, next Config) []string {
	var out []string
	for _, s := range []struct {
		name string
		a, b any
	}{
		{"include", running.Include, next.Include},
		{"exclude", running.Exclude, next.Exclude},
		{"capture", []any{running.Capture, running.CaptureExclude, running.MaxString, running.MaxElements, running.ValueDepth, running.MaxFields, running.ValueBytes, running.MaxAttrBytes, running.Redact, running.Statics},
			[]any{next.Capture, next.CaptureExclude, next.MaxString, next.MaxElements, next.ValueDepth, next.MaxFields, next.ValueBytes, next.MaxAttrBytes, next.Redact, next.Statics}},
		{"export", []any{running.ExportQueue, running.ExportBatch, running.ExportInterval, running.ShutdownWait, running.ExportCPU},
			[]any{next.ExportQueue, next.ExportBatch, next.ExportInterval, next.ShutdownWait, next.ExportCPU}},
		{"limits", []any{running.MaxThreads, running.RingBytes, running.BurstBytes, running.MaxDepth}, []any{next.MaxThreads, next.RingBytes, next.BurstBytes, next.MaxDepth}},
		{"log", []any{running.LogLevel, running.LogFile}, []any{next.LogLevel, next.LogFile}},
		{"serving", []any{running.Serving.After, running.Serving.Children, running.Serving.Entry},
			[]any{next.Serving.After, next.Serving.Children, next.Serving.Entry}},
	} {
		if !equalLists(s.a, s.b) {
			out = append(out, s.name)
		}
	}
	return out
}

// equalLists is DeepEqual that takes a nil list and an empty one alike.
func equalLists(a, b any) bool {
	norm := func(v any) any {
		if l, ok := v.([]string); ok && len(l) == 0 {
			return []string(nil)
		}
		if l, ok := v.([]any); ok {
			out := make([]any, len(l))
			for i, x := range l {
				if s, ok := x.([]string); ok && len(s) == 0 {
					x = []string(nil)
				}
				out[i] = x
			}
			return out
		}
		return v
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

// Run checks the file every period until stop is closed, handing each
// good change to apply and each failure to fail.
func (w *Watcher) Run(stop <-chan struct{}, period time.Duration, apply func(*Reload), fail func(error)) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		r, err := w.Check()
		if err != nil {
			fail(err)
			continue
		}
		if r != nil {
			apply(r)
		}
	}
}
