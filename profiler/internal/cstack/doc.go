// Package cstack tests the hooks' shadow stacks (profiler/hooks.c,
// symlinked here with the C files it links with, so that the go command
// hashes their contents) outside the runtime: it replays orders of Enter
// and Leave the runtime may send, on one thread, and checks that every
// frame the shadow stack holds is one still running. .NET 11's
// runtime-async methods (dotnet/runtime#122488) call Enter again on each
// resume and send no Leave when they suspend. Test-only: nothing imports
// it.
package cstack
