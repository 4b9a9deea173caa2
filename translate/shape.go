package translate

import (
	"regexp"
	"slices"
	"strings"

	"github.com/clrotel/clrotel/capture"
	"github.com/clrotel/clrotel/otelbridge"
	"github.com/clrotel/clrotel/shaping"
	"github.com/clrotel/clrotel/values"
	"go.opentelemetry.io/otel/attribute"
)

// shape is how the spans of one method are shaped by a no-code target: the
// method as its spans are named (the target's name and kind, its static
// attributes, code.function.name and the rest kept), and what the
// expressions read.
type shape struct {
	target  *shaping.Target
	method  *otelbridge.Method
	argKeys []string // the attribute key of each argument, in order
	typ     string   // the declaring type, for the expressions' `type`
	name    string   // the method's name, for `method`
	// named are the methods of the span names name_source gave so far
	// (at most maxSourcedNames; later names fall back to the target's).
	named map[string]*otelbridge.Method
	// keep: what is evaluated at return reads the arguments or instance,
	// so the call's values are kept from its beginning.
	keep bool
	// elems: the target reads array elements, so they are decoded.
	elems bool
}

// maxSourcedNames bounds the span names one target's name_source may
// make: each is a method of its own (and a metric series). Span names
// should have a low cardinality; past the bound, spans take the target's
// name.
const maxSourcedNames = 1000

// shapeOf returns how m's spans are shaped, or nil, deciding once per
// method (on the translator's goroutine).
func (t *Translator) shapeOf(f Function, m *otelbridge.Method) *shape {
	if t.Shapes == nil || m == nil || m.Function == "" {
		return nil
	}
	if sh, ok := t.shapes[m]; ok {
		return sh
	}
	if t.shapes == nil {
		t.shapes = map[*otelbridge.Method]*shape{}
	}
	typ, name := shaping.SplitFunction(m.Function)
	desc := shaping.MethodDesc{Type: typ, Method: name, ParamTypes: shaping.ParamTypes(strings.TrimSuffix(strings.TrimPrefix(m.Frame, m.Function+"("), ")")), Meta: f.Meta}
	if f.Meta != nil {
		// The expressions' type and method are upstream's: the target's
		// type and method as its file writes them, the metadata form.
		typ, name = f.Meta.Type, f.Meta.Method
	}
	for _, kv := range m.Attrs {
		switch kv.Key {
		case otelbridge.KeyAssembly:
			desc.Assembly = kv.Value.AsString()
		case otelbridge.KeyReturnType:
			desc.ReturnType = kv.Value.AsString()
		}
	}
	tg := t.Shapes.Match(desc)
	if tg == nil {
		t.shapes[m] = nil
		return nil
	}
	if t.matched == nil {
		t.matched = map[*shaping.Target]bool{}
	}
	t.matched[tg] = true
	attrs := append([]attribute.KeyValue(nil), m.Attrs...)
	for _, a := range tg.Attrs {
		if a.Expr == nil {
			attrs = append(attrs, keyValue(a.Name, a.Value))
		}
	}
	sh := &shape{target: tg, typ: typ, name: name, keep: tg.ReadsCallAtReturn(), elems: tg.ReadsElements(),
		method: &otelbridge.Method{SpanName: tg.Name, Attrs: attrs, Frame: m.Frame, Function: m.Function, Kind: int(tg.Kind)}}
	for _, s := range f.Enter {
		if strings.HasPrefix(s.Key, "dotnet.arg.") {
			sh.argKeys = append(sh.argKeys, s.Key)
		}
	}
	t.shapes[m] = sh
	return sh
}

// spanMethod returns the method a call's span is named after: the
// target's name, or what its name_source gives over the call's values
// (as upstream: when null or "", the name).
func (sh *shape) spanMethod(env callEnv) *otelbridge.Method {
	ns := sh.target.NameSource
	if ns == nil {
		return sh.method
	}
	name := shaping.Text(ns.Eval(env))
	if name == "" || name == sh.method.SpanName {
		return sh.method
	}
	if m, ok := sh.named[name]; ok {
		return m
	}
	if len(sh.named) >= maxSourcedNames {
		return sh.method
	}
	if sh.named == nil {
		sh.named = map[string]*otelbridge.Method{}
	}
	m := &otelbridge.Method{SpanName: name, Attrs: sh.method.Attrs, Frame: sh.method.Frame, Function: sh.method.Function, Kind: sh.method.Kind}
	sh.named[name] = m
	return m
}

// attrs appends the target's expression attributes evaluated when the
// call begins (atReturn false) or returns, over the call's values env.
// At return, those reading the return value are left out when it was not
// captured (known false): absent is not null.
func (sh *shape) attrs(out []attribute.KeyValue, atReturn, known bool, env callEnv) []attribute.KeyValue {
	for _, a := range sh.target.Attrs {
		if a.Expr == nil || a.AtReturn != atReturn || atReturn && !known {
			continue
		}
		if v, ok := shaping.Convert(a.Expr.Eval(env), a.Type); ok {
			out = append(out, keyValue(a.Name, v))
		}
	}
	return out
}

// status returns the status the first rule whose condition holds at
// return sets (unset: none holds). Rules that read the return value are
// passed over when it was not captured (known false).
func (sh *shape) status(env callEnv, known bool) (otelbridge.Status, string) {
	for _, r := range sh.target.Status {
		if !known && r.Cond.Uses("return") || !shaping.Truthy(r.Cond.Eval(env)) {
			continue
		}
		switch r.Code {
		case shaping.StatusOK:
			return otelbridge.StatusOK, ""
		case shaping.StatusError:
			return otelbridge.StatusError, r.Description
		}
		return otelbridge.StatusUnset, ""
	}
	return otelbridge.StatusUnset, ""
}

// shapeReturn applies a shaped call's status rules and the attributes that
// read its return value, ret its return value's attributes (and t.elems
// their arrays' elements): at once, or, for an async method whose span
// goes on until its task completes, then, over the task's result, as
// upstream awaits it. It returns ret with the attributes added.
func (t *Translator) shapeReturn(th *Thread, sh *shape, f Function, r capture.Record, ret []attribute.KeyValue) []attribute.KeyValue {
	var entered, enteredElems []attribute.KeyValue
	if depth := th.Spans.Depth(); sh.keep && depth > 0 && depth <= len(th.entered) {
		entered, enteredElems = th.entered[depth-1], th.enteredElems[depth-1]
	}
	if f.AsyncKickoff && t.Bridge.AtTaskEnd(th.Spans, sh.atTaskEnd(slices.Clone(entered), slices.Clone(enteredElems))) {
		return ret
	}
	// The return value is known when captured, or when there is none
	// (void: null).
	known := f.Planned && (len(f.Return) == 0 || r.Flags&capture.FlagValues != 0)
	env := callEnv{sh: sh, vals: ret, elems: t.elems}
	if entered != nil || enteredElems != nil {
		th.scratch = append(append(th.scratch[:0], entered...), ret...)
		th.scratchElems = append(append(th.scratchElems[:0], enteredElems...), t.elems...)
		env.vals, env.elems = th.scratch, th.scratchElems
	}
	if st, desc := sh.status(env, known); st != otelbridge.StatusUnset {
		t.Bridge.SetStatus(th.Spans, st, desc)
	}
	return sh.attrs(ret, true, known, env)
}

// atTaskEnd is how an async method's span is shaped when its task
// completes: its status rules and the attributes that read the return
// value, over the values its call began with (entered, when kept; its own
// copies) and the task's result.
func (sh *shape) atTaskEnd(entered, enteredElems []attribute.KeyValue) otelbridge.TaskEnd {
	return func(result, elems []attribute.KeyValue, known bool) otelbridge.TaskShape {
		env := callEnv{sh: sh, vals: append(entered[:len(entered):len(entered)], result...),
			elems: append(enteredElems[:len(enteredElems):len(enteredElems)], elems...)}
		st, desc := sh.status(env, known)
		return otelbridge.TaskShape{Attrs: sh.attrs(nil, true, known, env), Status: st, Desc: desc}
	}
}

func keyValue(name string, v any) attribute.KeyValue {
	switch x := v.(type) {
	case []string:
		return attribute.StringSlice(name, x)
	case []bool:
		return attribute.BoolSlice(name, x)
	case []int64:
		return attribute.Int64Slice(name, x)
	case []float64:
		return attribute.Float64Slice(name, x)
	case bool:
		return attribute.Bool(name, x)
	case int64:
		return attribute.Int64(name, x)
	case float64:
		return attribute.Float64(name, x)
	case string:
		return attribute.String(name, x)
	}
	return attribute.String(name, "")
}

// callEnv answers an expression from the attributes the call's values were
// rendered to: the argument's, this's or the return value's key, then
// its typed first-level fields (key.Field, the member's name matched
// without regard to case, as upstream's reflection); a null is its key's
// ".null"; an array or a collection is a shaping.Collection of its text and
// its ".length" or ".count", with, for an array whose elements were read
// (elems, values.AppendElements, by the same keys), those elements: an
// argument's, this's, the return value's or one of their first-level
// fields'. Deeper members are not captured: absent.
type callEnv struct {
	sh    *shape
	vals  []attribute.KeyValue
	elems []attribute.KeyValue // typed elements of arrays, by the same keys
}

// arrayText is how values renders an array: Type[dims]{elements}.
var arrayText = regexp.MustCompile(`^\S+?\[[0-9,]+\]\{`)

func (e callEnv) Args() int { return len(e.sh.argKeys) }

func (e callEnv) Value(root string, index int, members []string) (any, bool) {
	var key string
	switch root {
	case "arguments":
		if index >= len(e.sh.argKeys) {
			return nil, false
		}
		key = e.sh.argKeys[index]
	case "instance":
		key = values.ThisKey
	case "return":
		key = "dotnet.return"
	default:
		return nil, false
	}
	if len(members) > 0 {
		key += "." + strings.Join(members, ".")
	}
	var found any
	ok := false
	size, sized := int64(0), false
	for _, kv := range e.vals {
		k := string(kv.Key)
		if len(k) < len(key) || !strings.EqualFold(k[:len(key)], key) {
			continue
		}
		switch rest := k[len(key):]; {
		case rest == ".null":
			if kv.Value.AsBool() {
				return nil, true
			}
		case rest == ".count" || rest == ".length" && len(members) == 0:
			size, sized = kv.Value.AsInt64(), true
		case rest == "":
			ok = true
			switch kv.Value.Type() {
			case attribute.INT64:
				found = kv.Value.AsInt64()
			case attribute.FLOAT64:
				found = kv.Value.AsFloat64()
			case attribute.BOOL:
				found = kv.Value.AsBool()
			default:
				found = kv.Value.Emit()
			}
		}
	}
	if elems, n, has := e.elements(key); has {
		text, _ := found.(string)
		return shaping.Collection{Text: text, Size: int64(n), Elems: elems}, true
	}
	if text, isText := found.(string); ok && sized && isText && (arrayText.MatchString(text) || e.counted(key)) {
		return shaping.Collection{Text: text, Size: size}, true
	}
	return found, ok
}

// elements returns the typed elements of the array at key and how many,
// when they were read (values.AppendElements).
func (e callEnv) elements(key string) (any, int, bool) {
	for _, kv := range e.elems {
		if !strings.EqualFold(string(kv.Key), key) {
			continue
		}
		switch kv.Value.Type() {
		case attribute.STRINGSLICE:
			l := kv.Value.AsStringSlice()
			return l, len(l), true
		case attribute.BOOLSLICE:
			l := kv.Value.AsBoolSlice()
			return l, len(l), true
		case attribute.INT64SLICE:
			l := kv.Value.AsInt64Slice()
			return l, len(l), true
		case attribute.FLOAT64SLICE:
			l := kv.Value.AsFloat64Slice()
			return l, len(l), true
		}
	}
	return nil, 0, false
}

// counted reports whether the value at key is a collection (values gives
// it a ".count").
func (e callEnv) counted(key string) bool {
	for _, kv := range e.vals {
		if k := string(kv.Key); len(k) == len(key)+6 && strings.EqualFold(k[:len(key)], key) && k[len(key):] == ".count" {
			return true
		}
	}
	return false
}

func (e callEnv) Method() string { return e.sh.name }
func (e callEnv) Type() string   { return e.sh.typ }

// UnmatchedTargets returns the no-code targets that have shaped no span so
// far: their method was never called while traced, or they select none (a
// misspelt name or signature). Call it from the translator's goroutine, or
// once it has stopped.
func (t *Translator) UnmatchedTargets() []*shaping.Target {
	if t.Shapes == nil {
		return nil
	}
	var out []*shaping.Target
	for _, tg := range t.Shapes.Targets {
		if !t.matched[tg] {
			out = append(out, tg)
		}
	}
	return out
}
