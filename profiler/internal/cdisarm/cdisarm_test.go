package cdisarm

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// lib.c stands for libcoreclr.so: local functions (not exported, found only
// in the symbol table) that begin with push %rbp, as the runtime's ELT
// helpers do, one that begins otherwise, and exported functions that call
// them.
const libC = `
__attribute__((visibility("hidden"))) volatile int calls;
__asm__(".text\n"
	".type victim,@function\n"
	"victim:\n"
	"  push %rbp\n"
	"  mov %rsp, %rbp\n"
	"  incl calls(%rip)\n"
	"  mov calls(%rip), %eax\n"
	"  pop %rbp\n"
	"  ret\n"
	".size victim, .-victim\n"
	".type odd,@function\n"
	"odd:\n"
	"  nop\n"
	"  mov $7, %eax\n"
	"  ret\n"
	".size odd, .-odd\n");
int victim(void);
int odd(void);
int call_victim(void) { victim(); return calls; }
int call_odd(void) { return odd(); }
`

func TestDisarm(t *testing.T) {
	dir := t.TempDir()
	src, lib := filepath.Join(dir, "lib.c"), filepath.Join(dir, "libvictim.so")
	if err := os.WriteFile(src, []byte(libC), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gcc", "-shared", "-fPIC", "-O1", "-o", lib, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	if err := Load(lib); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name         string
		anchor, sym  string
		patched      int
		victim, odds int // what call_victim and call_odd return next
	}{
		{"a name the library lacks", "call_victim", "no_such_function", 0, 1, 7},
		{"no anchor", "", "victim", -1, 2, 7},
		{"a function that begins otherwise", "call_odd", "odd", 0, 3, 7},
		{"the helper", "call_victim", "victim", 1, 3, 7}, // returns at once: calls stays 3
		{"patched already", "call_victim", "victim", 0, 3, 7},
	}
	for _, s := range steps {
		if got := Disarm(s.anchor, s.sym); got != s.patched {
			t.Errorf("%s: clr_disarm %d, want %d", s.name, got, s.patched)
		}
		if got := Call("call_victim"); got != s.victim {
			t.Errorf("%s: then call_victim() = %d, want %d", s.name, got, s.victim)
		}
		if got := Call("call_odd"); got != s.odds {
			t.Errorf("%s: then call_odd() = %d, want %d", s.name, got, s.odds)
		}
	}
}
