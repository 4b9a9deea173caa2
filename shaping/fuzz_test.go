package shaping

import "testing"

// FuzzExpr: any text is parsed or refused with a column inside it (or just
// past its end), and what parses evaluates without failing, over captured
// values, nulls and absent ones.
func FuzzExpr(f *testing.F) {
	for _, s := range []string{"arguments[0].Name ? arguments[0].Name : \"unknown\"", "size(arguments[2]) > 1 && -return.Total <= 3 % 0",
		"\"a\" + string(arguments[1 - 1]) + instance.X.Y[2]", "contains(return.Message, 'err') || !method", "((1))"} {
		f.Add(s)
	}
	vals := env{"arguments[0]": int64(42), "arguments[1].Name": "ann", "arguments[2]": Collection{Text: "x", Size: 2},
		"return.Total": 12.5, "return": nil, "instance.X": "s"}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := ParseExpr(src)
		if err != nil {
			se, ok := err.(*SyntaxError)
			if !ok || se.Col < 1 || se.Col > len([]rune(src))+1 {
				t.Fatalf("%q: %v", src, err)
			}
			return
		}
		v := e.Eval(vals)
		switch v.(type) {
		case nil, string, int64, float64, bool, Collection:
		default:
			t.Fatalf("%q = %#v", src, v)
		}
		Convert(v, "int")
		Convert(v, "bool")
	})
}
