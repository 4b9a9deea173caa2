// disarm.h: the runtime's own ELT helpers made to return at once, for the
// teardown of a runtime whose helpers fault once the profiler is gone.
//
// CoreCLR 3.1's ProfileEnter, ProfileLeave and ProfileTailcall (the C++
// functions its ELT stubs call before they reach the hooks) read the
// profiler interface the runtime deletes after the Shutdown callback, with
// no check (park.h). Parking the threads that reach a hook covers the calls
// made while the callback runs; a thread that makes its first hooked call
// after the teardown still faults. So at the start of the callback those
// three functions get a `ret` for their first instruction: every later
// hooked call returns from the runtime's helper before it reads anything.
// A call already past that instruction reaches a hook, and parks.
//
// The helpers are local symbols of libcoreclr.so, found in its .symtab on
// disk; the library's load address is the one dladdr gives for a function
// the runtime handed the profiler. A helper is patched only when its first
// byte, in memory and in the file, is `push %rbp` (a one-byte instruction
// replaced by a one-byte `ret`: a thread executing the function sees the
// old instruction or the new one, never half of each). A runtime without
// the symbols, or with other code there, is left as it is.
#ifndef CLROTEL_DISARM_H
#define CLROTEL_DISARM_H

// The functions clr_disarm patches on CoreCLR 3.1.
extern const char *const clr_disarm_names[];
enum { CLR_DISARM_NAMES = 3 };

// Patches the named functions of the library holding anchor (an address in
// its code); returns how many it patched, or -1 when the library's file
// could not be read as an x86-64 ELF with a symbol table.
int clr_disarm(const void *anchor, const char *const *names, int n);

// What the last clr_disarm returned; -2 before any (for the exit log).
int clr_disarm_last(void);

#endif
