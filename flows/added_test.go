package flows

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// addedNames are async.c's: flow0..flow5, link0..link1, iter0..iter2.
type addedNames struct{ asked map[string]bool }

var addedBases = [typeKinds]string{"flow", "link", "iter"}
var addedCounts = [typeKinds]int{6, 2, 3}

func (a addedNames) Count(kind TypeKind) int { return addedCounts[kind] }
func (a addedNames) Index(name string, kind TypeKind) int {
	a.asked[name] = true
	for i := 0; i < addedCounts[kind]; i++ {
		if name == fmt.Sprintf("%s%s%d", AddedPrefix, addedBases[kind], i) {
			return i
		}
	}
	return -1
}

func TestFindAdded(t *testing.T) {
	flow := func(fd uint32) (string, error) {
		names := map[uint32]string{
			1: "<>1__state", 2: "<clrotel>flow0", 3: "<clrotel>flow1", 4: "<clrotel>flow2",
			5: "<clrotel>flow3", 6: "<clrotel>flow4", 7: "<clrotel>flow5", 8: "<clrotel>iter1",
			9: "<clrotel>link0", 10: "<clrotel>link1",
		}
		if n, ok := names[fd]; ok {
			return n, nil
		}
		return "", errors.New("no such field")
	}
	for _, c := range []struct {
		name   string
		fields []uint32
		want   Added
	}{
		{"a state machine's fields, in order whatever their tokens' order", []uint32{1, 7, 2, 3, 4, 5, 6},
			Added{StateMachineType: {2, 3, 4, 5, 6, 7}}},
		{"two kinds at once, one incomplete", []uint32{10, 9, 8, 1}, Added{ClosureType: {9, 10}}},
		{"a field missing: none", []uint32{2, 3, 4, 5, 6}, Added{}},
		{"an unreadable field is not one of them", []uint32{2, 3, 4, 5, 6, 99}, Added{}},
		{"no fields", nil, Added{}},
	} {
		names := addedNames{asked: map[string]bool{}}
		if got := FindAdded(c.fields, flow, names); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		for n := range names.asked {
			if !strings.HasPrefix(n, AddedPrefix) {
				t.Errorf("%s: the compiler's field %q looked up", c.name, n)
			}
		}
	}
}
