package summary

import "testing"

func TestGCSessionNote(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    GCSession
		text string
		warn bool
	}{
		{"no session", GCSession{Events: 3}, "", false},
		{"did not start", GCSession{State: -1}, "queued work: the EventPipe session for the runtime's GC events did not start: objects collections move are not reported, and work items moved are forgotten at the next collection", true},
		{"events read", GCSession{State: 1, Events: 12}, "queued work: 12 GC range events read from the EventPipe session", false},
		{"some malformed", GCSession{State: 1, Events: 12, Malformed: 2}, "queued work: 12 GC range events read from the EventPipe session, 2 ignored (a payload layout not known): their collections forgot the items they moved", true},
	} {
		text, warn := tc.g.Note()
		if text != tc.text || warn != tc.warn {
			t.Errorf("%s: %q, %v; want %q, %v", tc.name, text, warn, tc.text, tc.warn)
		}
	}
}
