package shaping

import (
	"strconv"
	"strings"
)

// Convert turns an expression's value into the attribute type typ, as
// upstream's NoCodeIntegrationHelper does: for string, bool, int and
// double the value itself when it has the type, else its text (Text)
// parsed as .NET parses it; for an array type a Collection's Elems of that
// type; false when it cannot (the attribute is then left out). The result
// is a string, bool, int64 or float64, or a []string, []bool, []int64 or
// []float64.
func Convert(v any, typ string) (any, bool) {
	if v == nil {
		return nil, false
	}
	switch typ {
	case "string":
		return Text(v), true
	case "bool":
		if b, ok := v.(bool); ok {
			return b, true
		}
		return parseBool(Text(v))
	case "int":
		if n, ok := v.(int64); ok {
			return n, true
		}
		n, err := strconv.ParseInt(strings.TrimSpace(Text(v)), 10, 64)
		return n, err == nil
	case "double":
		switch x := v.(type) {
		case float64:
			return x, true
		case int64:
			return float64(x), true
		}
		return parseDouble(Text(v))
	case "string_array", "bool_array", "int_array", "double_array":
		// As upstream: only an array of the type's own elements (string[];
		// bool[]; int[] or long[]; double[] or float[]).
		c, _ := v.(Collection)
		var elemType string
		switch c.Elems.(type) {
		case []string:
			elemType = "string_array"
		case []bool:
			elemType = "bool_array"
		case []int64:
			elemType = "int_array"
		case []float64:
			elemType = "double_array"
		}
		if elemType == typ {
			return c.Elems, true
		}
	}
	return nil, false
}

// parseBool is .NET's bool.TryParse: true or false in any case, spaces
// around.
func parseBool(s string) (any, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return nil, false
}

// parseDouble is .NET's double.TryParse with the invariant culture: a
// decimal number with an optional exponent (not Go's hexadecimal or
// underscores).
func parseDouble(s string) (any, bool) {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "xX_pP") || s == "" {
		return nil, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// staticValue converts a file's value v (a YAML scalar's, or a list's for
// the array types) into typ, as upstream's YamlAttribute reads a static
// attribute: a []string, []bool, []int64 or []float64 for the arrays.
func staticValue(v any, typ string) (any, bool) {
	elem, isArray := strings.CutSuffix(typ, "_array")
	if !isArray {
		if _, isList := v.([]any); isList {
			return nil, false
		}
		return Convert(v, typ)
	}
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	var out any
	switch elem {
	case "string":
		xs := make([]string, len(list))
		for i, e := range list {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			xs[i] = s
		}
		out = xs
	case "bool":
		xs := make([]bool, len(list))
		for i, e := range list {
			b, ok := Convert(e, "bool")
			if !ok {
				return nil, false
			}
			xs[i] = b.(bool)
		}
		out = xs
	case "int":
		xs := make([]int64, len(list))
		for i, e := range list {
			n, ok := Convert(e, "int")
			if !ok {
				return nil, false
			}
			xs[i] = n.(int64)
		}
		out = xs
	case "double":
		xs := make([]float64, len(list))
		for i, e := range list {
			f, ok := Convert(e, "double")
			if !ok {
				return nil, false
			}
			xs[i] = f.(float64)
		}
		out = xs
	default:
		return nil, false
	}
	return out, true
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
