package exitstatus

import (
	"os"
	"syscall"
)

// Of returns the status of the finished process ps as a shell reports it:
// 128 plus the signal's number when a signal ended it, else its exit code.
func Of(ps *os.ProcessState) int {
	if sig, ok := Signal(ps); ok {
		return 128 + int(sig)
	}
	return ps.ExitCode()
}

// Signal returns the signal that ended the finished process ps, if one did.
func Signal(ps *os.ProcessState) (syscall.Signal, bool) {
	if ps == nil {
		return 0, false
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal(), true
	}
	return 0, false
}
