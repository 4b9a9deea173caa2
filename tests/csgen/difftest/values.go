package difftest

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/clrotel/clrotel/otlpsink"
)

// maxString is the profiler's default CLROTEL_MAX_STRING: longer strings
// are cut, so the oracle does not compare them.
const maxString = 256

// checkValues compares the "@arg <method> <param> <kind> <value>" lines a
// generated program printed (each method is called once) with the
// dotnet.arg.<param> attribute of that method's span. It returns one line
// per disagreement.
func checkValues(stdout string, spans []otlpsink.Span) []string {
	var bad []string
	// Generated method names are unique (they end in a counter), so a
	// span is the method's when its name has ".<method>(" or
	// ".<method><" (a generic method's type arguments), and not
	// ".<method>()::" (a lambda of it, named as written).
	find := func(m string) []otlpsink.Span {
		var out []otlpsink.Span
		for _, s := range spans {
			if strings.Contains(s.Name, "."+m+"()::") {
				continue
			}
			if strings.Contains(s.Name, "."+m+"(") || strings.Contains(s.Name, "."+m+"<") {
				out = append(out, s)
			}
		}
		return out
	}
	for _, line := range strings.Split(stdout, "\n") {
		f := strings.Fields(line)
		if len(f) != 5 || f[0] != "@arg" {
			continue
		}
		method, param, kind, val := f[1], f[2], f[3], f[4]
		ss := find(method)
		if len(ss) == 0 && folded(spans) {
			// The call was folded into its caller's span (a full capture
			// buffer folds calls too): accounted for, its values not kept.
			continue
		}
		if len(ss) != 1 {
			bad = append(bad, fmt.Sprintf("%s: %d spans, want 1", method, len(ss)))
			continue
		}
		s := ss[0]
		if s.Attrs["dotnet.values.dropped"] == true || s.Attrs["dotnet.values.truncated"] == true || s.Attrs["dotnet.values.omitted"] == true {
			continue
		}
		key := "dotnet.arg." + param
		got, ok := s.Attrs[key]
		if !ok {
			bad = append(bad, fmt.Sprintf("%s(%s): no %s attribute", method, param, key))
			continue
		}
		if got == "***" && s.Attrs[key+".redacted"] == "pan" {
			// A string holding a run of digits that passes the Luhn check is
			// hidden as a payment card number, by design.
			continue
		}
		if msg := compareValue(kind, val, got, s.Attrs[key+".null"]); msg != "" {
			bad = append(bad, fmt.Sprintf("%s(%s): %s", method, param, msg))
		}
	}
	return bad
}

// compareValue says how a captured attribute differs from the value the
// program printed, or "".
func compareValue(kind, val string, got, null any) string {
	switch kind {
	case "L":
		want, _ := strconv.ParseInt(val, 10, 64)
		if got != want {
			return fmt.Sprintf("captured %v (%T), the method saw %d", got, got, want)
		}
	case "U":
		want, _ := strconv.ParseUint(val, 10, 64)
		if want <= math.MaxInt64 {
			if got != int64(want) {
				return fmt.Sprintf("captured %v (%T), the method saw %d", got, got, want)
			}
		} else if got != val {
			return fmt.Sprintf("captured %v (%T), the method saw %s", got, got, val)
		}
	case "D":
		bits, _ := strconv.ParseUint(val, 16, 64)
		want := math.Float64frombits(bits)
		g, ok := got.(float64)
		if !ok || !(g == want || math.IsNaN(g) && math.IsNaN(want)) || (g == 0 && math.Signbit(g) != math.Signbit(want)) {
			return fmt.Sprintf("captured %v (%T), the method saw %v", got, got, want)
		}
	case "B":
		if got != (val == "true") {
			return fmt.Sprintf("captured %v, the method saw %s", got, val)
		}
	case "C":
		c, _ := strconv.Atoi(val)
		if c >= 0xD800 && c <= 0xDFFF {
			return "" // a lone surrogate renders as U+FFFD
		}
		if got != string(rune(c)) {
			return fmt.Sprintf("captured %q, the method saw U+%04X", got, c)
		}
	case "N":
		if got != "null" || null != true {
			return fmt.Sprintf("captured %v (null mark %v), the method saw null", got, null)
		}
	case "S":
		var units []uint16
		if val != "-" {
			for i := 0; i+4 <= len(val); i += 4 {
				u, _ := strconv.ParseUint(val[i:i+4], 16, 16)
				units = append(units, uint16(u))
			}
		}
		if len(units) > maxString {
			return ""
		}
		want := string(utf16.Decode(units)) // unpaired surrogates become U+FFFD, as the profiler renders them
		if got != want {
			return fmt.Sprintf("captured %q, the method saw %q", got, want)
		}
	}
	return ""
}

// folded reports whether any span carries calls folded into it.
func folded(spans []otlpsink.Span) bool {
	for _, s := range spans {
		if n, ok := s.Attrs["clrotel.folded.count"].(int64); ok && n > 0 {
			return true
		}
	}
	return false
}
