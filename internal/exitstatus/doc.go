// Package exitstatus reads a finished process's status as a shell
// reports it: its exit code, or 128 plus the number of the signal that
// ended it. `clrotel run` exits with it, and the tests that compare a
// traced program with the same program untraced compare it.
//
// It owns only that reading. It must not start, wait for or signal a
// process.
package exitstatus
