package config

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// u32Ranges are the whole-number keys of the file and the values each
// takes. The file check (what a key's value must look like) and the value
// check (File.validate) both read it, so a message says the same range
// whether the value was -3 or 3,000,000.
var u32Ranges = map[string][2]uint32{
	"capture.max_string":               {0, 1 << 20},
	"capture.max_elements":             {0, 1 << 16},
	"capture.depth":                    {0, 16},
	"capture.max_fields":               {0, 1024},
	"capture.value_bytes":              {64, 1 << 20},
	"capture.max_attribute_bytes":      {256, 1 << 24},
	"sampling.burst":                   {1, 1 << 20},
	"export.queue_size":                {1, 1 << 24},
	"export.batch_size":                {1, 1 << 20},
	"export.cpu_percent":               {0, 100},
	"limits.max_threads":               {1, 65536},
	"limits.ring_kb":                   {4, 1 << 20},
	"limits.ring_burst_kb":             {0, 1 << 21},
	"limits.max_depth":                 {16, 1 << 20},
	"limits.max_spans_per_trace":       {0, 1 << 30},
	"limits.max_value_spans_per_trace": {0, 1 << 30},
	"fold.min_calls":                   {1, 1 << 31},
	"serving.children":                 {0, 1 << 30},
}

// checkKeys walks the document against File's keys and types before it is
// decoded, and reports every key it does not know and every value of the
// wrong kind, in the file's terms: the key's dotted path, what it takes,
// and what was found. An alias is checked where it is used, as the decoder
// reads it there (checkShape bounds the expanded size first).
func checkKeys(path string, root *yaml.Node) FileErrors {
	c := keyChecker{path: path}
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind == 0 || n.Kind == yaml.DocumentNode {
		return nil // an empty file, or only comments
	}
	c.value("", n, reflect.TypeOf(File{}))
	return c.errs.withMore(path, c.more)
}

type keyChecker struct {
	path string
	errs FileErrors
	more int
	// open are the anchored nodes being walked: an alias to one of them
	// (an anchor inside itself) is not followed; the decoder refuses it.
	open map[*yaml.Node]bool
}

func (c *keyChecker) bad(line int, field, format string, args ...any) {
	if len(c.errs) == maxErrors {
		c.more++
		return
	}
	c.errs = append(c.errs, &FileError{Path: c.path, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// value checks node n, the value of the key at field, against typ.
func (c *keyChecker) value(field string, n *yaml.Node, typ reflect.Type) {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Anchor != "" {
		if c.open[n] {
			return
		}
		if c.open == nil {
			c.open = map[*yaml.Node]bool{}
		}
		c.open[n] = true
		defer delete(c.open, n)
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return // as if absent
	}
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	switch {
	case typ == reflect.TypeOf(yaml.Node{}):
		return // a section another package checks (no_code: shaping)
	case typ.Kind() == reflect.Struct:
		if n.Kind != yaml.MappingNode {
			c.bad(n.Line, field, "want %s; found %s", takes(field, typ), found(n))
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.ShortTag() == "!!merge" { // <<: *base merges base's keys here
				for v.Kind == yaml.AliasNode && v.Alias != nil {
					v = v.Alias
				}
				if v.Kind == yaml.SequenceNode && !c.open[v] {
					for _, m := range v.Content {
						c.value(field, m, typ)
					}
				} else {
					c.value(field, v, typ)
				}
				continue
			}
			key := k.Value
			if field != "" {
				key = field + "." + k.Value
			}
			f, ok := fieldByKey(typ, k.Value)
			if !ok {
				c.bad(k.Line, key, "unknown key (a typo?): %s", takes(field, typ))
				continue
			}
			c.value(key, v, f.Type)
		}
	case typ.Kind() == reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			c.bad(n.Line, field, "want %s; found %s", takes(field, typ), found(n))
			return
		}
		for i, e := range n.Content {
			c.value(fmt.Sprintf("%s.%d", field, i), e, typ.Elem())
		}
	default:
		if n.Kind != yaml.ScalarNode {
			c.bad(n.Line, field, "want %s; found %s", takes(field, typ), found(n))
			return
		}
		if err := n.Decode(reflect.New(typ).Interface()); err != nil {
			c.bad(n.Line, field, "want %s; found %s", takes(field, typ), found(n))
		}
	}
}

// fieldByKey finds the field of struct typ whose yaml key is key.
func fieldByKey(typ reflect.Type, key string) (reflect.StructField, bool) {
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if strings.Split(f.Tag.Get("yaml"), ",")[0] == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// takes says what the key at field accepts, in the file's terms.
func takes(field string, typ reflect.Type) string {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	switch typ.Kind() {
	case reflect.Struct:
		var keys []string
		for i := 0; i < typ.NumField(); i++ {
			if k := strings.Split(typ.Field(i).Tag.Get("yaml"), ",")[0]; k != "-" {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		where := "the file"
		if field != "" {
			where = field
		}
		return fmt.Sprintf("%s takes the keys %s", where, strings.Join(keys, ", "))
	case reflect.Slice:
		if typ.Elem().Kind() == reflect.Struct {
			return "a list of entries, each with the keys " + strings.TrimPrefix(takes("", typ.Elem()), "the file takes the keys ")
		}
		return "a list, e.g. [\"Acme.*\"]"
	case reflect.Bool:
		return "true or false"
	case reflect.Uint32:
		if r, ok := u32Ranges[field]; ok {
			return fmt.Sprintf("a whole number from %d to %d", r[0], r[1])
		}
		return "a whole number, 0 or more"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a text value"
	}
	return typ.String()
}

// found describes what a node holds, as written.
func found(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping of keys"
	case yaml.SequenceNode:
		return "a list"
	}
	if n.ShortTag() == "!!str" {
		return strconv.Quote(n.Value)
	}
	return n.Value
}

// eachU32 calls fn with the dotted key and the value (nil when absent) of
// every whole-number key of f.
func eachU32(f *File, fn func(key string, v *uint32)) {
	var walk func(prefix string, v reflect.Value)
	walk = func(prefix string, v reflect.Value) {
		for i := 0; i < v.NumField(); i++ {
			key := strings.Split(v.Type().Field(i).Tag.Get("yaml"), ",")[0]
			if prefix != "" {
				key = prefix + "." + key
			}
			switch fv := v.Field(i); {
			case fv.Kind() == reflect.Struct:
				walk(key, fv)
			case fv.Type() == reflect.TypeOf((*uint32)(nil)):
				fn(key, fv.Interface().(*uint32))
			}
		}
	}
	walk("", reflect.ValueOf(f).Elem())
}
