package cmeta

import (
	"strings"
	"testing"
)

func checkContract(t *testing.T) {
	t.Helper()
	if n, last := Violations(); n != 0 {
		t.Errorf("%d calls broke the buffer contract; the last: %s", n, last)
	}
}

// Every name comes back whole, whatever its length, and no call hands the
// runtime a buffer with a capacity it does not have (a one-character buffer
// passed with capacity 0 let .NET 8 write an enum member's name over the
// stack: issue 13).
func TestNames(t *testing.T) {
	for _, n := range []int{1, 7, 1023, 1024, 1025, 3000} {
		name := strings.Repeat("x", n-1) + "Z"
		Reset(name, 3, 1)
		got, err := Names()
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range got {
			if v != name {
				t.Errorf("%d characters: %s name is %d characters", n, k, len(v))
			}
		}
		checkContract(t)
	}
}

func TestFieldConstantAsksForNoName(t *testing.T) {
	Reset("ThisMemberNameIsLongEnoughToOverrunAnyBufferThatWasSizedForASingleCharacter", 1, 0)
	v, attrs, err := FieldConstant()
	if err != nil {
		t.Fatal(err)
	}
	if v != 7 || attrs&0x40 == 0 {
		t.Errorf("constant %d attrs %#x", v, attrs)
	}
	checkContract(t)
}

func TestEnumerationsAreComplete(t *testing.T) {
	for _, c := range []struct{ total, first int }{{0, 4}, {3, 4}, {4, 4}, {5, 4}, {2000, 64}} {
		Reset("f", c.total, 0)
		got, err := Enums(c.first)
		if err != nil {
			t.Fatal(err)
		}
		for k, n := range got {
			if n != c.total {
				t.Errorf("%s: %d of %d entries (first buffer %d)", k, n, c.total, c.first)
			}
		}
		checkContract(t)
	}
}

func TestLayoutAsksForTheCountFirst(t *testing.T) {
	for _, n := range []int{0, 1, 511, 512, 513, 5000} {
		Reset("f", n, 0)
		got, err := Layout()
		if err != nil {
			t.Fatal(err)
		}
		if got != n {
			t.Errorf("%d of %d fields", got, n)
		}
		checkContract(t)
	}
}

// More type arguments than the wrappers' buffers hold is an error, never a
// cut list or an overrun.
func TestTypeArgs(t *testing.T) {
	for _, n := range []int{0, 2, MaxTypeArgs, MaxTypeArgs + 1, 100} {
		Reset("f", 0, n)
		fn, class, fnErr, classErr := TypeArgs()
		if n <= MaxTypeArgs {
			if fnErr != nil || classErr != nil || fn != n || class != n {
				t.Errorf("%d type arguments: function %d (%v), class %d (%v)", n, fn, fnErr, class, classErr)
			}
		} else if fnErr == nil || classErr == nil {
			t.Errorf("%d type arguments: no error (function %d, class %d)", n, fn, class)
		}
		checkContract(t)
	}
}
