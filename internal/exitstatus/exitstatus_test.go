package exitstatus

import (
	"os/exec"
	"syscall"
	"testing"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   int
		sig    syscall.Signal // 0: no signal ended it
	}{
		{"exit 0", 0, 0},
		{"exit 3", 3, 0},
		{"exit 130", 130, 0}, // a code a signal would give, without one
		{"kill -TERM $$", 128 + int(syscall.SIGTERM), syscall.SIGTERM},
		{"kill -KILL $$", 128 + int(syscall.SIGKILL), syscall.SIGKILL},
	} {
		cmd := exec.Command("sh", "-c", tc.script)
		_ = cmd.Run() // a non-zero status is what is tested
		if cmd.ProcessState == nil {
			t.Fatalf("%q: did not run", tc.script)
		}
		if got := Of(cmd.ProcessState); got != tc.want {
			t.Errorf("%q: Of = %d, want %d", tc.script, got, tc.want)
		}
		sig, ok := Signal(cmd.ProcessState)
		if ok != (tc.sig != 0) || sig != tc.sig {
			t.Errorf("%q: Signal = %v, %v; want %v", tc.script, sig, ok, tc.sig)
		}
	}
}

func TestSignalOfNoProcess(t *testing.T) {
	if sig, ok := Signal(nil); ok || sig != 0 {
		t.Errorf("Signal(nil) = %v, %v; want 0, false", sig, ok)
	}
}
