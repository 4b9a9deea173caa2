package difftest

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestStacksOnTimeout(t *testing.T) {
	if _, err := exec.LookPath("gdb"); err != nil {
		t.Skip("gdb is not installed")
	}
	for _, tc := range []struct {
		name       string
		parentDone bool // the campaign ended, not the run's time limit
		want       bool
	}{
		{"the run's time limit", false, true},
		{"the campaign's end", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent, cancelParent := context.WithCancel(context.Background())
			defer cancelParent()
			limit := 300 * time.Millisecond
			if tc.parentDone {
				limit = time.Minute
				time.AfterFunc(300*time.Millisecond, cancelParent)
			}
			rctx, cancel := context.WithTimeout(parent, limit)
			defer cancel()
			cmd := exec.CommandContext(rctx, "sleep", "30")
			stacks := stacksOnTimeout(parent, cmd)
			start := time.Now()
			if err := cmd.Run(); err == nil {
				t.Fatal("sleep 30 ended by itself")
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Fatalf("the run was stopped after %v", d)
			}
			s := stacks()
			// gdb names the frame the sleeping thread waits in.
			if got := strings.Contains(s, "#0 "); got != tc.want {
				t.Errorf("stacks kept: %v, want %v:\n%.2000s", got, tc.want, s)
			}
		})
	}
}
