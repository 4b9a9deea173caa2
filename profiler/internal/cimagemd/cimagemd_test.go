package cimagemd

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

// mapped lays a PE file out as a loader maps it: headers, then each
// section's raw data at its RVA. (debug/pe refuses ReadyToRun images: their
// machine field is the architecture xor an OS value.)
func mapped(t *testing.T, file []byte) []byte {
	t.Helper()
	le := binary.LittleEndian
	pe := le.Uint32(file[0x3c:])
	nsec, optSize := uint32(le.Uint16(file[pe+6:])), uint32(le.Uint16(file[pe+20:]))
	opt := pe + 24
	sizeOfImage, sizeOfHeaders := le.Uint32(file[opt+56:]), le.Uint32(file[opt+60:])
	img := make([]byte, sizeOfImage)
	copy(img, file[:sizeOfHeaders])
	for i := uint32(0); i < nsec; i++ {
		s := file[opt+optSize+40*i:]
		vsize, va, raw, ptr := le.Uint32(s[8:]), le.Uint32(s[12:]), le.Uint32(s[16:]), le.Uint32(s[20:])
		n := min(raw, vsize)
		if vsize == 0 {
			n = raw
		}
		copy(img[va:], file[ptr:ptr+n])
	}
	return img
}

// corelibs returns the CoreLib of each installed runtime.
func corelibs(t *testing.T) []string {
	var found []string
	for _, d := range []string{"dotnet", "dotnet8"} {
		m, _ := filepath.Glob(filepath.Join("..", "..", "..", ".deps", d, "shared", "Microsoft.NETCore.App", "*", "System.Private.CoreLib.dll"))
		found = append(found, m...)
	}
	if len(found) == 0 {
		t.Skip("no runtime in .deps (make deps)")
	}
	return found
}

// The task builders async.c looks for are found in CoreLib, with the same
// answers whichever way the image is laid out.
func TestCoreLibBuilders(t *testing.T) {
	const ns = "System.Runtime.CompilerServices"
	for _, path := range corelibs(t) {
		file, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		answers := map[bool]map[string][]uint32{}
		for _, flat := range []bool{true, false} {
			img := file
			if !flat {
				img = mapped(t, file)
			}
			im, err := Open(img, flat)
			if err != nil {
				t.Fatalf("%s (flat %v): %v", path, flat, err)
			}
			got := map[string][]uint32{}
			for _, typ := range []string{"AsyncTaskMethodBuilder", "AsyncTaskMethodBuilder`1", "AsyncVoidMethodBuilder", "AsyncValueTaskMethodBuilder"} {
				td := im.FindType(ns, typ)
				if td>>24 != 0x02 || td&0xffffff < 2 {
					t.Fatalf("%s: %s.%s: token %#x", path, ns, typ, td)
				}
				if len(im.MethodsNamed(td, "AwaitUnsafeOnCompleted")) == 0 {
					t.Errorf("%s: %s has no AwaitUnsafeOnCompleted", path, typ)
				}
				for _, m := range []string{"SetResult", "SetException"} {
					toks := im.MethodsNamed(td, m)
					if len(toks) == 0 {
						t.Errorf("%s: %s.%s not found", path, typ, m)
					}
					for _, tok := range toks {
						if name, ok := im.MethodName(tok); !ok || name != m {
							t.Errorf("%s: %s.%s: token %#x is named %q", path, typ, m, tok, name)
						}
					}
					got[typ+"."+m] = toks
				}
			}
			for _, name := range []string{"IAsyncStateMachine", "AwaitUnsafeOnCompleted", "CompilerGeneratedAttribute"} {
				if !im.Names(name) {
					t.Errorf("%s: %s not in the string heap", path, name)
				}
			}
			// Nested types are not found by their own name; unknown ones not at all.
			if td := im.FindType(ns, "NoSuchBuilder"); td != 0 {
				t.Errorf("%s: an unknown type has token %#x", path, td)
			}
			if td := im.FindType("", "Enumerator"); td != 0 {
				t.Errorf("%s: a nested type was found at top level: %#x", path, td)
			}
			im.Close()
			answers[flat] = got
		}
		if !reflect.DeepEqual(answers[true], answers[false]) {
			t.Errorf("%s: flat and mapped layouts disagree:\n%v\n%v", path, answers[true], answers[false])
		}
	}
}

// On an assembly whose tokens are known from its source (the compiler
// numbers types and methods in the order they are declared).
func TestKnownTokens(t *testing.T) {
	mcs, err := exec.LookPath("mcs")
	if err != nil {
		t.Skip("no mcs")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "K.cs")
	os.WriteFile(src, []byte(`namespace N.M {
public class First { public void A() {} public void SetResult() {} public void SetResult(int x) {} public class Inner { public void SetResult() {} } }
public class Second<T> { public void SetResult() {} public void B() {} }
}
public class Top { public void SetResult() {} }
`), 0o644)
	out := filepath.Join(dir, "K.dll")
	if o, err := exec.Command(mcs, "-nologo", "-target:library", "-out:"+out, src).CombinedOutput(); err != nil {
		t.Fatalf("mcs: %v\n%s", err, o)
	}
	file, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, flat := range []bool{true, false} {
		img := file
		if !flat {
			img = mapped(t, file)
		}
		im, err := Open(img, flat)
		if err != nil {
			t.Fatal(err)
		}
		first, second, top := im.FindType("N.M", "First"), im.FindType("N.M", "Second`1"), im.FindType("", "Top")
		if first == 0 || second == 0 || top == 0 || im.FindType("N.M", "Inner") != 0 || im.FindType("N", "First") != 0 {
			t.Fatalf("types: First %#x Second`1 %#x Top %#x", first, second, top)
		}
		// Methods are numbered in the order they are declared.
		a, set := im.MethodsNamed(first, "A"), im.MethodsNamed(first, "SetResult")
		if len(a) != 1 || len(set) != 2 || set[0] != a[0]+1 || set[1] != a[0]+2 {
			t.Errorf("First.A %#x, First.SetResult %#x", a, set)
		}
		if got := im.MethodsNamed(second, "SetResult"); len(got) != 1 {
			t.Errorf("Second`1.SetResult: %#x", got)
		}
		if got := im.MethodsNamed(top, "SetResult"); len(got) != 1 {
			t.Errorf("Top.SetResult: %#x", got)
		}
		if got := im.MethodsNamed(first, "B"); len(got) != 0 {
			t.Errorf("First.B (Second's): %#x", got)
		}
		// The string heap: a name or an entry's tail is there, nothing else
		// is (async.c skips what a module cannot hold).
		for _, c := range []struct {
			name string
			want bool
		}{
			{"First", true}, {"SetResult", true}, {"N.M", true}, {"Second`1", true},
			{"Result", true}, // the tail of SetResult
			{"SetRes", false}, {"AwaitUnsafeOnCompleted", false}, {"IAsyncStateMachine", false}, {"Firsts", false},
		} {
			if got := im.Names(c.name); got != c.want {
				t.Errorf("Names(%q) = %v, want %v", c.name, got, c.want)
			}
		}
		im.Close()
	}
}

// What is not an image is refused, not read.
func TestNotAnImage(t *testing.T) {
	for _, b := range [][]byte{nil, make([]byte, 64), append([]byte("MZ"), make([]byte, 200)...)} {
		if im, err := Open(append(b, 0), true); err == nil {
			im.Close()
			t.Errorf("%d bytes of nothing opened", len(b))
		}
	}
}
