package hotpath

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// entries are the hooks the runtime calls on every traced call
// (profiler/hooks_amd64.S).
var entries = []string{"clr_enter_trampoline", "clr_leave_trampoline", "clr_tailcall_trampoline"}

// perThread are the functions that run once per thread, not per call: what
// they reach is not the hot path (they set a thread's slot up: mmap for the
// ring, getrandom for the trace-id seed, gettid, the TLS destructor key).
// clr_park runs only once the runtime's Shutdown callback has begun: it
// sleeps the thread through the profiler's teardown (park.h).
var perThread = map[string]bool{"slot_acquire": true, "clr_park": true}

// allowedExternal are the library functions the hot path may call:
// clock_gettime is served by the vDSO (no system call, no lock); memcpy
// copies into the preallocated ring, and memmove within it (a short value
// over the size header it did not need, values.c sized_end).
var allowedExternal = map[string]bool{"clock_gettime@plt": true, "memcpy@plt": true, "memmove@plt": true}

// apiCallers are the functions allowed to call through a pointer: each
// calls the .NET profiling API (ICorProfilerInfo vtable), which the runtime
// supports from inside Enter/Leave hooks, to read argument and return
// locations, object classes, array bounds and static addresses, or the
// exact type arguments of shared generic code. They run only for methods
// whose values are captured, or that are shared generic; an unsampled or
// value-less call reaches none of them.
var apiCallers = map[string]bool{
	"exact_generic_types": true,
	// The arguments of the call being entered (eltargs.c): the ranges for
	// value capture, exact generic types and the queuing methods'
	// callbacks; one argument (the `this` of an async state machine's
	// MoveNext, a closure's method, a work item or Activity.Stop; a
	// timer's period).
	"clr_enter_args_get": true,
	"clr_leave_ret_get":  true,
	"clr_elt_arg":        true,
	"clr_capture_enter":  true,
	"clr_capture_leave":  true,
	// What an iterator's MoveNext returned (an element, or the end).
	"clr_elt_ret_bool": true,
	"write_value":      true,
	"write_struct":     true,
	"write_array":      true,
	"write_object":     true,
	"write_static":     true,
	"write_statics":    true,
	// The exact class, or type argument, of a shared generic frame: for
	// the `this` of a generic struct and for type-parameter values.
	"frame_class":    true,
	"frame_type_arg": true,
	// The exact class of a shared generic state machine's step, and its
	// `this` (flowlayout.c): its added fields are where that class has
	// them, asked of the runtime's layout once per class.
	"clr_flow_this":            true,
	"flow_frame_class":         true,
	"clr_guarded_class_layout": true,
	// The guarded calls on what the object graph names (guard.c): the
	// value writer's, and once per process the ambient reader's array
	// layout.
	"clr_guarded_class_from_object": true,
	"clr_guarded_array_object_info": true,
	"clr_guarded_is_array_class":    true,
	"clr_guarded_class_id_info":     true,
	// Joining the caller's trace (ambient.c): the address of this thread's
	// Thread.t_currentThread, asked once per thread (again only when the
	// cached one went stale).
	"ambient_thread_slot": true,
}

// forbidden are what the hot path must never reach.
var forbidden = regexp.MustCompile(`^(malloc|calloc|realloc|free|posix_memalign|aligned_alloc|mmap|munmap|brk|sbrk|pthread_mutex_\w+|pthread_rwlock_\w+|pthread_cond_\w+|pthread_spin_\w+|sem_\w+|futex|syscall|__lll_lock\w*|crosscall\w*|_cgo\w*|x_cgo\w*|_cgoexp\w*|runtime\..*|clrotel[A-Z]\w*|__tls_get_addr)(@plt)?$`)

type disasm struct {
	calls    map[string]map[string]bool // direct call and jump targets
	indirect map[string][]string        // operands of indirect calls and jumps
}

var (
	funcRE     = regexp.MustCompile(`^[0-9a-f]+ <([^>]+)>:$`)
	directRE   = regexp.MustCompile(`\t(?:call|jmp|j[a-z]+)\s+[0-9a-f]+ <([^>+]+)(?:\+0x[0-9a-f]+)?>`)
	indirectRE = regexp.MustCompile(`\t(?:call|jmp)\s+\*(.+)$`)
)

func parse(out []byte) disasm {
	d := disasm{calls: map[string]map[string]bool{}, indirect: map[string][]string{}}
	cur := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := funcRE.FindStringSubmatch(line); m != nil {
			cur = m[1]
			continue
		}
		if cur == "" {
			continue
		}
		if m := directRE.FindStringSubmatch(line); m != nil {
			if m[1] != cur {
				if d.calls[cur] == nil {
					d.calls[cur] = map[string]bool{}
				}
				d.calls[cur][m[1]] = true
			}
		} else if m := indirectRE.FindStringSubmatch(line); m != nil {
			d.indirect[cur] = append(d.indirect[cur], strings.TrimSpace(m[1]))
		}
	}
	return d
}

// cloneRE matches the suffixes GCC gives the parts and specialised copies
// of a function (f.cold, f.constprop.0, f.isra.0, f.part.0).
var cloneRE = regexp.MustCompile(`(\.(cold|constprop|isra|part|lto_priv)(\.\d+)?)+$`)

// base is the source function a symbol comes from.
func base(sym string) string { return cloneRE.ReplaceAllString(sym, "") }

// reach returns every function reachable from entry by direct calls and
// jumps, not entering PLT stubs (their targets are the dynamic linker's)
// nor the per-thread set-up.
func (d disasm) reach(entry string) map[string]bool {
	seen := map[string]bool{}
	stack := []string{entry}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[f] {
			continue
		}
		seen[f] = true
		if strings.HasSuffix(f, "@plt") || perThread[base(f)] {
			continue
		}
		for g := range d.calls[f] {
			stack = append(stack, g)
		}
	}
	return seen
}

// buildLibrary builds the library as make does, but keeping its symbols.
func buildLibrary(t *testing.T) []byte {
	t.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	lib := filepath.Join(t.TempDir(), "libclrotel.so")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-o", lib, "./profiler")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the library: %v\n%s", err, out)
	}
	out, err := exec.Command("objdump", "-d", "--no-show-raw-insn", lib).Output()
	if err != nil {
		t.Fatalf("objdump (binutils) is needed: %v", err)
	}
	return out
}

func TestHotPath(t *testing.T) {
	d := parse(buildLibrary(t))
	for _, entry := range entries {
		t.Run(entry, func(t *testing.T) {
			if _, ok := d.calls[entry]; !ok {
				t.Fatalf("%s not found in the library (renamed?)", entry)
			}
			reached := d.reach(entry)
			var names []string
			for f := range reached {
				names = append(names, f)
			}
			sort.Strings(names)
			t.Logf("reachable per call: %v", names)
			for _, f := range names {
				switch {
				case forbidden.MatchString(f):
					t.Errorf("%s reaches %s", entry, f)
				case strings.HasSuffix(f, "@plt") && !allowedExternal[f]:
					t.Errorf("%s reaches library function %s, not known to be lock- and allocation-free", entry, f)
				}
				if ind := d.indirect[f]; len(ind) > 0 && !apiCallers[base(f)] && !strings.HasSuffix(f, "@plt") {
					t.Errorf("%s calls through a pointer (%v): only the profiling-API readers may", f, ind)
				}
			}
			// The core of every call (unsampled, or without values) is
			// our own code only.
			for _, f := range names {
				switch base(f) {
				case "clr_on_enter", "clr_on_leave", "clr_on_tailcall", "pop_frame", "ring_reserve":
					if len(d.indirect[f]) > 0 {
						t.Errorf("%s calls through a pointer: %v", f, d.indirect[f])
					}
				}
			}
		})
	}
}

// The check can fail: a lock or an allocation reachable from a hook, or a
// call through a pointer outside the API readers, is caught.
func TestHotPathCheckCatches(t *testing.T) {
	bad := []byte(`0000000000001000 <clr_enter_trampoline>:
    1000:	call   2000 <clr_on_enter>
0000000000002000 <clr_on_enter>:
    2000:	call   3000 <helper>
    2005:	call   *0x10(%rax)
0000000000003000 <helper>:
    3000:	jmp    4000 <malloc@plt>
    3005:	call   5000 <pthread_mutex_lock@plt>
0000000000004000 <malloc@plt>:
0000000000005000 <pthread_mutex_lock@plt>:
`)
	d := parse(bad)
	reached := d.reach("clr_enter_trampoline")
	for _, f := range []string{"clr_on_enter", "helper", "malloc@plt", "pthread_mutex_lock@plt"} {
		if !reached[f] {
			t.Errorf("%s not found reachable", f)
		}
	}
	if !forbidden.MatchString("malloc@plt") || !forbidden.MatchString("pthread_mutex_lock@plt") || !forbidden.MatchString("crosscall2") || !forbidden.MatchString("clrotelMapFunction") {
		t.Error("forbidden pattern misses an allocator, a lock or Go")
	}
	if len(d.indirect["clr_on_enter"]) != 1 {
		t.Errorf("indirect call not seen: %v", d.indirect)
	}
	if base("exact_generic_types.constprop.0") != "exact_generic_types" || base("clr_on_enter.cold") != "clr_on_enter" {
		t.Error("clone suffixes not stripped")
	}
}
