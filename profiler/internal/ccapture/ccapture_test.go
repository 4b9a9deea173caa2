package ccapture

import (
	"encoding/binary"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/clrotel/clrotel/capture"
	"github.com/clrotel/clrotel/flows"
)

// goNames gives, for each number of capture.h, what package capture calls
// it and its value there.
var goNames = map[string]struct {
	name  string
	value uint64
}{
	"REC_PAD":       {"KindPad", uint64(capture.KindPad)},
	"REC_ENTER":     {"KindEnter", uint64(capture.KindEnter)},
	"REC_LEAVE":     {"KindLeave", uint64(capture.KindLeave)},
	"REC_TAILCALL":  {"KindTailcall", uint64(capture.KindTailcall)},
	"REC_UNWIND":    {"KindUnwind", uint64(capture.KindUnwind)},
	"REC_EXCEPTION": {"KindException", uint64(capture.KindException)},
	"REC_CATCH":     {"KindCatch", uint64(capture.KindCatch)},
	"REC_NO_LEAVE":  {"KindNoLeave", uint64(capture.KindNoLeave)},
	"REC_SERVING":   {"KindServing", uint64(capture.KindServing)},
	"REC_ACTIVITY":  {"KindActivity", uint64(capture.KindActivity)},

	"RF_ROOT":           {"FlagRoot", uint64(capture.FlagRoot)},
	"RF_GENERIC":        {"FlagGeneric", uint64(capture.FlagGeneric)},
	"RF_VALUES":         {"FlagValues", uint64(capture.FlagValues)},
	"RF_VALUES_DROPPED": {"FlagValuesDropped", uint64(capture.FlagValuesDropped)},
	"RF_FOLDED":         {"FlagFolded", uint64(capture.FlagFolded)},
	"RF_TRUNCATED":      {"FlagTruncated", uint64(capture.FlagTruncated)},
	"RF_FOLDED_COUNT":   {"FlagFoldedCount", uint64(capture.FlagFoldedCount)},
	"RF_PARENT":         {"FlagParent", uint64(capture.FlagParent)},
	"RF_SPANID":         {"FlagSpanID", uint64(capture.FlagSpanID)},
	"RF_RESUME":         {"FlagResume", uint64(capture.FlagResume)},
	"RF_ASYNC_END":      {"FlagAsyncEnd", uint64(capture.FlagAsyncEnd)},
	"RF_APPROX":         {"FlagApprox", uint64(capture.FlagApprox)},
	"RF_SYNC_END":       {"FlagSyncEnd", uint64(capture.FlagSyncEnd)},
	"RF_LINK":           {"FlagLink", uint64(capture.FlagLink)},
	"RF_VALUES_LIMITED": {"FlagValuesLimited", uint64(capture.FlagValuesLimited)},
	"RF_VALUES_OMITTED": {"FlagValuesOmitted", uint64(capture.FlagValuesOmitted)},
	"RF_UNIT":           {"FlagUnit", uint64(capture.FlagUnit)},
	"RF_QUEUED":         {"FlagQueued", uint64(capture.FlagQueued)},

	"REC_HEADER":    {"HeaderSize", capture.HeaderSize},
	"REC_EXIT_SIZE": {"ExitSize", capture.ExitSize},
	"MAX_TYPE_ARGS": {"MaxTypeArgs", capture.MaxTypeArgs},
	"TAIL_CALLEES":  {"flows.MaxTailCallees", flows.MaxTailCallees},
	"FOLD_TOP":      {"FoldTop", capture.FoldTop},
	"REC_FOLD_SIZE": {"FoldSize", capture.FoldSize},

	"EXIT_ITER_YIELDED": {"ExitIterYielded", uint64(capture.ExitIterYielded)},
	"EXIT_ITER_DONE":    {"ExitIterDone", uint64(capture.ExitIterDone)},
	"EXIT_AUX_COUNT":    {"ExitAuxCount", uint64(capture.ExitAuxCount)},
}

// TestConstants: each number of the record format is the same in
// capture.h and package capture.
func TestConstants(t *testing.T) {
	for _, c := range slices.Concat(Kinds, Flags, SharedFlags, Sizes) {
		g, ok := goNames[c.Name]
		if !ok {
			t.Errorf("%s = %d in capture.h: no counterpart in package capture listed here", c.Name, c.Value)
			continue
		}
		if c.Value != g.value {
			t.Errorf("%s = %d in capture.h, capture.%s = %d", c.Name, c.Value, g.name, g.value)
		}
	}
}

// TestFlagsAreBits: each record flag is one bit of its own, and the flags
// fit the header's u16.
func TestFlagsAreBits(t *testing.T) {
	var seen uint64
	for _, f := range Flags {
		if f.Value == 0 || f.Value&(f.Value-1) != 0 || f.Value > 0xFFFF {
			t.Errorf("%s = %#x: not one bit of a u16", f.Name, f.Value)
		}
		if seen&f.Value != 0 {
			t.Errorf("%s = %#x: bit taken by another flag", f.Name, f.Value)
		}
		seen |= f.Value
	}
}

// TestEveryConstantListed: the lists here name every record kind and flag
// capture.h defines, and every Kind and Flag constant package capture
// declares, so that a number added on one side only fails TestConstants.
func TestEveryConstantListed(t *testing.T) {
	src, err := os.ReadFile("capture.h")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, c := range slices.Concat(Kinds, Flags, SharedFlags, Sizes) {
		listed[c.Name] = true
	}
	for _, m := range regexp.MustCompile(`\b((?:REC|RF)_[A-Z_]+)\s*=`).FindAllStringSubmatch(string(src), -1) {
		if !listed[m[1]] {
			t.Errorf("capture.h defines %s: list it in ccapture.go and give its capture counterpart", m[1])
		}
	}

	goListed := map[string]bool{}
	for _, g := range goNames {
		goListed[g.name] = true
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "../../../capture/record.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, s := range gd.Specs {
			for _, n := range s.(*ast.ValueSpec).Names {
				if (strings.HasPrefix(n.Name, "Kind") || strings.HasPrefix(n.Name, "Flag") || strings.HasSuffix(n.Name, "Size")) && !goListed[n.Name] {
					t.Errorf("package capture declares %s: give its capture.h counterpart here", n.Name)
				}
			}
		}
	}
}

// TestHeader: records whose headers the hooks wrote read back through
// capture.Ring with the size, kind, flags and time written.
func TestHeader(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 1))
	type rec struct {
		size        uint32
		kind, flags uint16
		time        uint64
	}
	for round := 0; round < 200; round++ {
		data := make([]byte, 4096)
		var want []rec
		pos := 0
		for {
			k := Kinds[1+r.IntN(len(Kinds)-1)] // a pad is only read past
			x := rec{uint32(capture.HeaderSize + 8*r.IntN(8)), uint16(k.Value), uint16(r.Uint32()), r.Uint64() >> 1}
			if pos+int(x.size) > len(data) {
				break
			}
			PutHeader(data[pos:], x.size, x.kind, x.flags, x.time)
			want = append(want, x)
			pos += int(x.size)
		}
		// The end of the ring, as ring_reserve pads it.
		if pos < len(data) {
			binary.LittleEndian.PutUint32(data[pos:], uint32(len(data)-pos))
			binary.LittleEndian.PutUint16(data[pos+4:], uint16(capture.KindPad))
		}
		head, tail := uint64(len(data)), uint64(0)
		ring, err := capture.NewRing(&head, &tail, data)
		if err != nil {
			t.Fatal(err)
		}
		var got []rec
		if _, err := ring.Drain(func(rc capture.Record) {
			got = append(got, rec{uint32(capture.HeaderSize + len(rc.Payload)), uint16(rc.Kind), rc.Flags, uint64(rc.Time)})
		}); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("read back %d records, written %d", len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("record %d: read back %+v, written %+v", i, got[i], want[i])
			}
		}
	}
}

// TestFoldPart: an exit record's fold part as fold.c writes it reads back
// through capture.DecodeExit.
func TestFoldPart(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 2))
	for i := 0; i < 10000; i++ {
		top := make([]FoldEntry, r.IntN(capture.FoldTop+1))
		for k := range top {
			top[k] = FoldEntry{r.Uint32(), r.Uint32(), r.Uint64()}
		}
		fn, calls, ns := r.Uint32(), r.Uint32(), r.Uint64()
		p := make([]byte, 256)
		size := PutFoldExit(p, fn, calls, ns, top)
		kind := binary.LittleEndian.Uint16(p[4:])
		flags := binary.LittleEndian.Uint16(p[6:])
		if capture.Kind(kind) != capture.KindLeave || flags != capture.FlagFolded || int(binary.LittleEndian.Uint32(p)) != size {
			t.Fatalf("header: size %d kind %d flags %#x", binary.LittleEndian.Uint32(p), kind, flags)
		}
		x, err := capture.DecodeExit(capture.Record{Kind: capture.Kind(kind), Flags: flags, Payload: p[capture.HeaderSize:size]})
		if err != nil {
			t.Fatal(err)
		}
		want := capture.Exit{Func: fn, Fold: capture.Fold{Calls: calls, Ns: ns}}
		for _, e := range top {
			want.Fold.Top = append(want.Fold.Top, capture.FoldEntry{Func: e.Func, Calls: e.Calls, Ns: e.Ns})
		}
		if !reflect.DeepEqual(x, want) {
			t.Fatalf("decoded %+v, written %+v", x, want)
		}
	}
}

// TestSpanID: the hook and the drainer derive the same id for a span whose
// enter record carries none.
func TestSpanID(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 3))
	for i := 0; i < 100000; i++ {
		salt, pos := r.Uint64(), r.Uint64()>>r.IntN(64)
		id := capture.SpanID(salt, pos)
		if got, want := binary.LittleEndian.Uint64(id[:]), SpanID(salt, pos); got != want {
			t.Fatalf("salt %#x pos %d: Go %#x, C %#x", salt, pos, got, want)
		}
	}
}
