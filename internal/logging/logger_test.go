package logging

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLevels(t *testing.T) {
	for _, tc := range []struct {
		level string
		want  string
	}{
		{"error", "clrotel: e\n"},
		{"warn", "clrotel: e\nclrotel: w\n"},
		{"info", "clrotel: e\nclrotel: w\nclrotel: i\n"},
		{"debug", "clrotel: e\nclrotel: w\nclrotel: i\nclrotel: d 1\n"},
		{"", "clrotel: e\nclrotel: w\n"},        // unset: warn
		{"verbose", "clrotel: e\nclrotel: w\n"}, // unknown: warn
	} {
		var b strings.Builder
		l := New(tc.level, &b)
		l.Errorf("e")
		l.Warnf("w")
		l.Infof("i")
		l.Debugf("d %d", 1)
		if b.String() != tc.want {
			t.Errorf("level %q wrote %q; want %q", tc.level, b.String(), tc.want)
		}
	}
}

func TestFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "clrotel.log")
	var b strings.Builder
	l := New("info", &b)
	l.now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC) }
	if err := l.OpenFile(path); err != nil {
		t.Fatal(err)
	}
	l.Infof("hello %s", "file")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "2026-01-02T03:04:05.000000006Z clrotel: hello file\n"; string(got) != want {
		t.Errorf("file holds %q; want %q", got, want)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, %v; want owner-only", st.Mode(), err)
	}
	if b.String() != "clrotel: hello file\n" {
		t.Errorf("stderr %q", b.String())
	}
	if err := l.OpenFile(filepath.Join(path, "under-a-file")); err == nil || !strings.HasPrefix(err.Error(), "log file: ") {
		t.Errorf("OpenFile under a file: %v; want a log file error", err)
	}
}

// failing is a file whose writes fail.
type failing struct{ closed bool }

func (f *failing) Write([]byte) (int, error) { return 0, errors.New("disk full") }
func (f *failing) Close() error              { f.closed = true; return nil }

func TestFileErrorDropsFile(t *testing.T) {
	var b strings.Builder
	l := New("info", &b)
	f := &failing{}
	l.file = f
	l.Infof("one")
	l.Infof("two")
	if !f.closed || l.file != nil {
		t.Errorf("a failed write left the file open")
	}
	if b.String() != "clrotel: one\nclrotel: two\n" {
		t.Errorf("stderr %q; want both messages", b.String())
	}
}
