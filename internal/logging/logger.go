package logging

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Logger writes the profiler's own messages to stderr and, if configured,
// to a log file created with owner-only permissions. It never blocks the
// app for long: a write error disables the file.
type Logger struct {
	mu    sync.Mutex
	level int
	out   io.Writer
	file  io.WriteCloser
	now   func() time.Time
}

var levels = map[string]int{"error": 0, "warn": 1, "info": 2, "debug": 3}

// New logs to stderr the messages at level ("error", "warn", "info",
// "debug"; anything else is "warn") and above.
func New(level string, stderr io.Writer) *Logger {
	l, ok := levels[level]
	if !ok {
		l = 1
	}
	return &Logger{level: l, out: stderr, now: time.Now}
}

// OpenFile adds a log file. It reports why it could not, and the profiler
// carries on with stderr only.
func (l *Logger) OpenFile(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("log file: %w", err)
	}
	l.mu.Lock()
	l.file = f
	l.mu.Unlock()
	return nil
}

func (l *Logger) logf(level int, format string, args ...any) {
	if level > l.level {
		return
	}
	msg := fmt.Sprintf("clrotel: "+format+"\n", args...)
	l.mu.Lock()
	defer l.mu.Unlock()
	io.WriteString(l.out, msg)
	if l.file != nil {
		if _, err := io.WriteString(l.file, l.now().UTC().Format(time.RFC3339Nano)+" "+msg); err != nil {
			l.file.Close()
			l.file = nil
		}
	}
}

func (l *Logger) Errorf(format string, args ...any) { l.logf(0, format, args...) }
func (l *Logger) Warnf(format string, args ...any)  { l.logf(1, format, args...) }
func (l *Logger) Infof(format string, args ...any)  { l.logf(2, format, args...) }
func (l *Logger) Debugf(format string, args ...any) { l.logf(3, format, args...) }
