package difftest

import (
	"context"
	"os/exec"
	"strconv"
	"time"
)

// maxStacks bounds the thread stacks kept from one hung run.
const maxStacks = 1 << 20

// stacksOnTimeout makes cmd, when ctx ends it while parent is still
// live (the run's own time limit, not the campaign's end), print every
// thread's stack with gdb before it is killed: a hang that comes once in
// thousands of runs is then diagnosed from the run that met it. The
// returned func gives the stacks after cmd.Wait ("" when the run was not
// stopped that way, or gdb is not installed or cannot attach).
func stacksOnTimeout(parent context.Context, cmd *exec.Cmd) func() string {
	got := make(chan string, 1)
	cmd.Cancel = func() error {
		if parent.Err() == nil {
			got <- threadStacks(cmd.Process.Pid)
		}
		return cmd.Process.Kill()
	}
	return func() string {
		select {
		case s := <-got:
			return s
		default:
			return ""
		}
	}
}

// threadStacks is every thread's backtrace of process pid as gdb prints
// it, or "" without gdb.
func threadStacks(pid int) string {
	gdb, err := exec.LookPath("gdb")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, _ := exec.CommandContext(ctx, gdb, "-batch", "-nx", "-p", strconv.Itoa(pid), "-ex", "thread apply all bt 40").CombinedOutput()
	if len(out) > maxStacks {
		out = out[:maxStacks]
	}
	return string(out)
}
