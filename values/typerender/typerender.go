package typerender

import (
	"strings"
	"sync"
	"time"

	"github.com/clrotel/clrotel/values"
	"go.opentelemetry.io/otel/attribute"
)

// Renderer is a values.TypeRenderer for the common BCL types. The zero
// value is ready. It is safe for concurrent use; the only state it keeps is
// what each class name selects, remembered because every object of every
// recorded call is asked about.
type Renderer struct {
	// Location is the time zone a DateTime of Kind Local is shown in (its
	// offset for that date); nil: the process's (time.Local: TZ, else
	// /etc/localtime, as .NET reads it on Linux).
	Location *time.Location

	names sync.Map // class name → byName
}

// byName is what a class's name alone says of its rendering, and, once an
// object of the class was seen, what its name and fields say (the same for
// every object of one class).
type byName struct {
	base    string     // the name without its generic arguments
	generic bool       // the name has generic arguments
	fn      renderFunc // the renderer the name selects; nil: none
	objSeen bool       // obj is decided
	obj     renderFunc // with fn nil, an object's renderer by its name's shape and fields; nil: none
}

func (r *Renderer) byName(name string) byName {
	if b, ok := r.names.Load(name); ok {
		return b.(byName)
	}
	var b byName
	b.base, b.generic, b.fn = nameRenderer(name)
	r.names.Store(name, b)
	return b
}

// nameRenderer returns a class name without its generic arguments (nested
// classes kept: List<T>.Enumerator is not a List<T>), whether it had any,
// and the renderer that name selects (nil: none).
func nameRenderer(name string) (base string, isGeneric bool, fn renderFunc) {
	base, isGeneric = stripArgs(name), strings.IndexByte(name, '<') >= 0
	if isGeneric {
		return base, true, generic[base]
	}
	return base, false, exact[base]
}

// New returns a Renderer.
func New() *Renderer { return &Renderer{} }

type renderFunc func(f fields, c values.Context) (values.Rendering, bool)

// exact maps a non-generic class name to its renderer; generic maps a
// generic class's name without its arguments.
var exact, generic map[string]renderFunc

func init() {
	exact = map[string]renderFunc{
		"System.Decimal":                     renderDecimal,
		"System.DateTime":                    renderDateTime,
		"System.DateTimeOffset":              renderDateTimeOffset,
		"System.TimeSpan":                    renderTimeSpan,
		"System.DateOnly":                    renderDateOnly,
		"System.TimeOnly":                    renderTimeOnly,
		"System.Guid":                        renderGuid,
		"System.Uri":                         renderUri,
		"System.Version":                     renderVersion,
		"System.Text.StringBuilder":          renderStringBuilder,
		"System.Threading.CancellationToken": renderCancellationToken,
		"System.RuntimeType":                 renderType,
		"System.Threading.Tasks.Task":        renderTask,
	}
	generic = map[string]renderFunc{
		"System.Collections.Generic.List":                    renderList,
		"System.Collections.Generic.Dictionary":              renderDictionary,
		"System.Collections.Generic.HashSet":                 renderHashSet,
		"System.Collections.Generic.Queue":                   renderQueue,
		"System.Collections.Generic.Stack":                   renderStack,
		"System.Collections.Generic.KeyValuePair":            renderKeyValuePair,
		"System.Collections.ObjectModel.ReadOnlyCollection":  renderReadOnlyCollection,
		"System.ArraySegment":                                renderArraySegment,
		"System.Collections.Immutable.ImmutableArray":        renderImmutableArray,
		"System.Collections.Concurrent.ConcurrentDictionary": renderConcurrentDictionary,
		"System.Collections.Generic.SortedSet":               renderSortedSet,
		"System.Collections.Generic.TreeSet":                 renderSortedSet,
		"System.Collections.Generic.SortedDictionary":        renderSortedDictionary,
		"System.Collections.Immutable.ImmutableList":         renderImmutableList,
		"System.Tuple":                     renderTuple,
		"System.ValueTuple":                renderTuple,
		"System.Lazy":                      renderLazy,
		"System.Threading.Tasks.Task":      renderTask,
		"System.Threading.Tasks.ValueTask": renderValueTask,
	}
}

// Render implements values.TypeRenderer.
func (r *Renderer) Render(ci values.ClassInfo, v values.Value, c values.Context) (values.Rendering, bool) {
	f := fields{ci: ci, v: v, loc: r.Location}
	b := r.byName(ci.Name)
	fn := b.fn
	if fn == nil {
		if v.Shape != values.Object {
			return values.Rendering{}, false
		}
		if !b.objSeen {
			b.obj = objectRenderer(b.base, f)
			// A class not known yet (no fields) is asked again later.
			if len(ci.Fields) > 0 {
				b.objSeen = true
				r.names.Store(ci.Name, b)
			}
		}
		if fn = b.obj; fn == nil {
			return values.Rendering{}, false
		}
	}
	return fn(f, c)
}

// HasRendering reports whether Render renders an object of class ci (its
// name and fields' names) by its meaning rather than field by field: the
// class's name or shape selects a renderer. The planner asks it of
// classes before any object of them is captured.
func HasRendering(ci values.ClassInfo) bool {
	base, _, fn := nameRenderer(ci.Name)
	return fn != nil || objectRenderer(base, fields{ci: ci}) != nil
}

// Renders implements values.RenderChooser: Render declines every object
// of a class HasRendering says no to.
func (r *Renderer) Renders(ci values.ClassInfo) bool { return HasRendering(ci) }

// objectRenderer is the renderer an object of a class no name selects
// gets from its name's shape and its fields, or nil.
func objectRenderer(base string, f fields) renderFunc {
	switch {
	case strings.HasSuffix(base, "Exception"):
		return renderException
	case strings.HasPrefix(base, "System.Text.") && strings.Contains(base, "Encoding"):
		return renderEncoding
	case f.has("_target") && f.has("_methodPtr") && f.has("_invocationCount"):
		return renderDelegate
	}
	return nil
}

// fields finds a captured value's fields by name.
// counted are the collections whose rendering, when there is one, always
// has a ".count": their count is checked to be 0 or more first.
var counted = map[string]bool{
	"System.Collections.Generic.List":       true,
	"System.Collections.Generic.Dictionary": true,
	"System.Collections.Generic.Stack":      true,
	"System.Collections.Generic.Queue":      true,
}

// Collection implements values.CollectionRenderer.
func (r *Renderer) Collection(ci values.ClassInfo) bool {
	b := r.byName(ci.Name)
	return b.generic && counted[b.base]
}

type fields struct {
	ci  values.ClassInfo
	v   values.Value
	loc *time.Location // Renderer.Location
}

// has reports whether the class has a field of that name.
func (f fields) has(name string) bool {
	for _, fd := range f.ci.Fields {
		if fd.Name == name {
			return true
		}
	}
	return false
}

// get returns the first of the named fields the class has and the stream
// holds.
func (f fields) get(names ...string) (values.Value, bool) {
	return fieldAt(f.v, f.index(names...))
}

// index is the field of the first of names the class has, or -1.
func (f fields) index(names ...string) int {
	for _, n := range names {
		for i, fd := range f.ci.Fields {
			if fd.Name == n {
				return i
			}
		}
	}
	return -1
}

// fieldAt is v's field i when it was captured.
func fieldAt(v values.Value, i int) (values.Value, bool) {
	if i >= 0 && i < len(v.Fields) && v.Fields[i].Shape != values.Truncated {
		return v.Fields[i], true
	}
	return values.Value{}, false
}

// prim returns a primitive field's value, sign-extended.
func (f fields) prim(names ...string) (int64, bool) {
	v, ok := f.get(names...)
	if !ok || v.Shape != values.Prim {
		return 0, false
	}
	return v.Int(), true
}

// primBits returns a primitive field's raw bits.
func (f fields) primBits(names ...string) (uint64, bool) {
	v, ok := f.get(names...)
	if !ok || v.Shape != values.Prim {
		return 0, false
	}
	return v.Bits, true
}

// sub builds a sub-attribute.
func sub(suffix string, v attribute.Value) values.Sub { return values.Sub{Suffix: suffix, Value: v} }

// of reads the fields of a nested Object or Struct value.
func of(c values.Context, v values.Value) (fields, bool) {
	if v.Shape == values.Boxed && len(v.Fields) == 1 {
		v = v.Fields[0]
	}
	if v.Shape != values.Object && v.Shape != values.Struct {
		return fields{}, false
	}
	ci, ok := c.Class(v.Class)
	if !ok {
		return fields{}, false
	}
	return fields{ci: ci, v: v}, true
}
