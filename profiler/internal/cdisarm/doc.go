// Package cdisarm tests profiler/disarm.c, which makes the runtime's ELT
// helpers return at once at teardown, on functions of the test binary
// itself: found by name in its symbol table, patched only when they begin
// with `push %rbp`.
package cdisarm
