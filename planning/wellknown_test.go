package planning

import "testing"

func TestPrepare(t *testing.T) {
	for _, messages := range []bool{false, true} {
		f := newShop(t)
		f.unloaded[core] = true // CoreLib's classes not there yet
		pl, sink, _ := newTest(f, Options{Messages: messages})
		pl.Prepare()
		if pl.Len() != 0 || sink.layouts != 0 {
			t.Fatalf("prepared too early: %d classes", pl.Len())
		}
		f.unloaded[core] = false
		pl.Prepare()
		pl.Prepare()
		for _, cid := range []uint64{cidString, cidInt32, cidDouble, cidBoolean} {
			if sink.published[cid] == nil {
				t.Errorf("class %d not published", cid)
			}
		}
		if sink.published[cidBoolean].Shape != ShapeBoxed {
			t.Errorf("Boolean's box: %+v", sink.published[cidBoolean])
		}
		switch {
		case !messages && sink.layouts != 0:
			t.Errorf("exception layout looked up with messages off")
		case messages && (sink.layouts != 1 || sink.message != 16 || sink.inner != 24):
			t.Errorf("exception layout %d, %d (%d times)", sink.message, sink.inner, sink.layouts)
		}
	}
}

func TestPrepareNoMessageField(t *testing.T) {
	f := newShop(t)
	f.types[cidException].layout = nil
	pl, sink, log := newTest(f, Options{Messages: true})
	pl.Prepare()
	if sink.layouts != 1 || sink.message != 0 || !log.has("System.Exception has no _message field") {
		t.Errorf("layout %d (%d times), warnings %q", sink.message, sink.layouts, log.warnings)
	}
}
