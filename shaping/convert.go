package shaping

import (
	"fmt"
	"strconv"
	"strings"
)

// Convert turns a value into the attribute type typ (string, bool, int,
// double), as the format does: false when it cannot (the attribute is
// then left out). The result is a string, bool, int64 or float64.
func Convert(v any, typ string) (any, bool) {
	if v == nil {
		return nil, false
	}
	switch typ {
	case "string":
		switch x := v.(type) {
		case string:
			return x, true
		case float64:
			return strconv.FormatFloat(x, 'g', -1, 64), true
		}
		return fmt.Sprint(v), true
	case "bool":
		switch x := v.(type) {
		case bool:
			return x, true
		case string:
			b, err := strconv.ParseBool(x)
			return b, err == nil
		}
	case "int":
		switch x := v.(type) {
		case int64:
			return x, true
		case float64:
			return int64(x), x == float64(int64(x))
		case string:
			n, err := strconv.ParseInt(x, 10, 64)
			return n, err == nil
		}
	case "double":
		switch x := v.(type) {
		case int64:
			return float64(x), true
		case float64:
			return x, true
		case string:
			f, err := strconv.ParseFloat(x, 64)
			return f, err == nil
		}
	}
	return nil, false
}

// ParamTypes splits clrotel's parameter list ("Int32 id, Dictionary<String,
// Int32> map") into its types.
func ParamTypes(params string) []string {
	var out []string
	depth, start := 0, 0
	add := func(p string) {
		p = strings.TrimSpace(p)
		if p == "" {
			return
		}
		if i := strings.LastIndexByte(p, ' '); i > 0 {
			p = p[:i]
		}
		out = append(out, p)
	}
	for i := 0; i < len(params); i++ {
		switch params[i] {
		case '<', '[':
			depth++
		case '>', ']':
			depth--
		case ',':
			if depth == 0 {
				add(params[start:i])
				start = i + 1
			}
		}
	}
	add(params[start:])
	return out
}

// SplitFunction splits Namespace.Type.Method (generic arguments included)
// into the type and the method's name.
func SplitFunction(function string) (typ, method string) {
	depth := 0
	for i := len(function) - 1; i >= 0; i-- {
		switch function[i] {
		case '>':
			depth++
		case '<':
			depth--
		case '.':
			if depth == 0 && i > 0 {
				if function[i-1] == '.' { // .ctor, .cctor
					return function[:i-1], function[i:]
				}
				return function[:i], function[i+1:]
			}
		}
	}
	return "", function
}
