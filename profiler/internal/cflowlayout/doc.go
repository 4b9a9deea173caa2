// Package cflowlayout tests how the hooks find the fields the profiler
// added to a state machine in shared generic code (profiler/flowlayout.c,
// symlinked here with what it includes so that the go command hashes their
// contents): per exact class, from a fake runtime's class layouts and
// frames, remembered once per class. Test-only: nothing imports it.
package cflowlayout
