package shaping

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/clrotel/clrotel/naming"
)

// Kind is a span kind the file may set.
type Kind int

// The span kinds, as OTLP numbers them.
const (
	KindInternal Kind = 1
	KindServer   Kind = 2
	KindClient   Kind = 3
	KindProducer Kind = 4
	KindConsumer Kind = 5
)

var kinds = map[string]Kind{"internal": KindInternal, "server": KindServer, "client": KindClient, "producer": KindProducer, "consumer": KindConsumer}

// Status codes of a status rule.
const (
	StatusUnset = "unset"
	StatusOK    = "ok"
	StatusError = "error"
)

// Rules are the targets of a no-code file, in order: the first that
// matches a method shapes its spans.
type Rules struct {
	Targets []*Target
}

// Target selects methods and says how their spans are shaped.
type Target struct {
	// Assembly, Type and Method select: exact names as upstream, or
	// clrotel's globs (* and ?).
	Assembly, Type, Method string
	// Signature: checked when HasSignature (upstream requires it).
	HasSignature bool
	ReturnType   string
	ParamTypes   []string

	Name string // the span's name
	// NameSource, when set, names each span from its call's values (at
	// the call's beginning, as upstream: return is null); Name when it
	// gives null or "".
	NameSource *Expr
	Kind       Kind
	Attrs      []Attr
	Status     []StatusRule
	Path       string // the file it is read from
	Line       int    // of the target in the file
}

// Attr is an attribute a shaped span carries: a static value, or an
// expression over the call's values, converted to Type (string, bool,
// int, double, string_array, bool_array, int_array, double_array; an
// expression gives an array type only from an array captured whole, as
// Convert says).
type Attr struct {
	Name string
	Type string
	// Value, static: a string, bool, int64, float64, []string, []bool,
	// []int64 or []float64.
	Value any
	Expr  *Expr // dynamic
	// AtReturn: the expression reads the return value, so it is evaluated
	// when the call returns (with the arguments and instance it began
	// with); else when it begins. Upstream evaluates every attribute when
	// the call begins, where return is always null: clrotel reads the
	// value the file means.
	AtReturn bool
}

// ReadsCallAtReturn reports whether something evaluated when the call
// returns (a status rule, an attribute reading the return value) also
// reads its arguments or instance, which must then be kept from its
// beginning.
func (t *Target) ReadsCallAtReturn() bool {
	reads := func(e *Expr) bool { return e.Uses("arguments") || e.Uses("instance") }
	for _, r := range t.Status {
		if reads(r.Cond) {
			return true
		}
	}
	for _, a := range t.Attrs {
		if a.AtReturn && reads(a.Expr) {
			return true
		}
	}
	return false
}

// ReadsElements reports whether the target reads the elements of arrays:
// an attribute of an array type from an expression, or an expression that
// indexes one.
func (t *Target) ReadsElements() bool {
	if t.NameSource != nil && t.NameSource.ReadsElements() {
		return true
	}
	for _, a := range t.Attrs {
		if a.Expr != nil && (strings.HasSuffix(a.Type, "_array") || a.Expr.ReadsElements()) {
			return true
		}
	}
	for _, r := range t.Status {
		if r.Cond.ReadsElements() {
			return true
		}
	}
	return false
}

// StatusRule sets the span's status when its condition holds at return.
type StatusRule struct {
	Cond        *Expr
	Code        string
	Description string
}

// Error is one problem of a no-code file.
type Error struct {
	Path      string
	Line, Col int
	Key       string
	Msg       string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", e.Path, e.Line, e.Col, e.Key, e.Msg)
}

// Errors are every problem found in a file.
type Errors []*Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// sectionPath is where upstream's file keeps the targets.
var sectionPath = []string{"instrumentation/development", "dotnet", "no_code", "targets"}

// Parse reads the no-code targets of an OpenTelemetry configuration file
// (the rest of the file is not clrotel's). Every problem is reported, with
// its line and column; a file with any problem yields no rules.
func Parse(path string, data []byte) (*Rules, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, Errors{{Path: path, Line: 1, Col: 1, Key: "", Msg: err.Error()}}
	}
	n := &root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	key := ""
	for _, k := range sectionPath[:len(sectionPath)-1] {
		if n.Kind != yaml.MappingNode {
			return &Rules{}, nil
		}
		v := lookup(n, k)
		if v == nil {
			return &Rules{}, nil
		}
		key = strings.TrimPrefix(key+"."+k, ".")
		n = v
	}
	return ParseSection(path, key, n)
}

// ParseSection reads a no_code section (the node n, at the dotted key in
// the file at path): upstream's instrumentation/development.dotnet.no_code,
// or the no_code key of clrotel's own configuration file. Every problem
// is reported (Errors), with its line and column.
func ParseSection(path, key string, n *yaml.Node) (*Rules, error) {
	p := &fileParser{path: path}
	rules := &Rules{}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return rules, nil
	}
	m := p.mapping(n, key, "targets")
	key += ".targets"
	if tn := m["targets"]; tn != nil && !(tn.Kind == yaml.ScalarNode && tn.ShortTag() == "!!null") {
		if tn.Kind != yaml.SequenceNode {
			p.bad(tn, key, "want a list of targets")
		} else {
			for i, t := range tn.Content {
				if tg := p.target(fmt.Sprintf("%s.%d", key, i), t); tg != nil {
					rules.Targets = append(rules.Targets, tg)
				}
			}
		}
	}
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool {
			a, b := p.errs[i], p.errs[j]
			return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
		})
		return nil, p.errs
	}
	return rules, nil
}

type fileParser struct {
	path string
	errs Errors
}

func (p *fileParser) bad(n *yaml.Node, key, format string, args ...any) {
	p.errs = append(p.errs, &Error{Path: p.path, Line: n.Line, Col: n.Column, Key: key, Msg: fmt.Sprintf(format, args...)})
}

func lookup(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// mapping checks that n is a mapping with only the keys allowed, and
// returns its values by key.
func (p *fileParser) mapping(n *yaml.Node, key string, allowed ...string) map[string]*yaml.Node {
	if n.Kind != yaml.MappingNode {
		p.bad(n, key, "want a mapping with the keys %s", strings.Join(allowed, ", "))
		return nil
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		ok := false
		for _, a := range allowed {
			ok = ok || a == k.Value
		}
		if !ok {
			p.bad(k, key+"."+k.Value, "unknown key: %s takes %s", key, strings.Join(allowed, ", "))
			continue
		}
		out[k.Value] = n.Content[i+1]
	}
	return out
}

func (p *fileParser) str(n *yaml.Node, key string) string {
	if n == nil {
		return ""
	}
	if n.Kind != yaml.ScalarNode {
		p.bad(n, key, "want a text value")
		return ""
	}
	return n.Value
}

func (p *fileParser) target(key string, n *yaml.Node) *Target {
	m := p.mapping(n, key, "target", "span")
	if m == nil {
		return nil
	}
	t := &Target{Path: p.path, Line: n.Line, Kind: KindInternal}
	if tn := m["target"]; tn == nil {
		p.bad(n, key, "missing target")
	} else if tm := p.mapping(tn, key+".target", "assembly", "type", "method", "signature"); tm != nil {
		if a := tm["assembly"]; a != nil {
			if am := p.mapping(a, key+".target.assembly", "name"); am != nil {
				t.Assembly = p.str(am["name"], key+".target.assembly.name")
			}
		}
		t.Type = p.str(tm["type"], key+".target.type")
		t.Method = p.str(tm["method"], key+".target.method")
		if t.Type == "" || t.Method == "" {
			p.bad(tn, key+".target", "want type and method")
		}
		if s := tm["signature"]; s != nil {
			t.HasSignature = true
			if sm := p.mapping(s, key+".target.signature", "return_type", "parameter_types"); sm != nil {
				t.ReturnType = p.str(sm["return_type"], key+".target.signature.return_type")
				if pt := sm["parameter_types"]; pt != nil && !(pt.Kind == yaml.ScalarNode && pt.ShortTag() == "!!null") {
					if pt.Kind != yaml.SequenceNode {
						p.bad(pt, key+".target.signature.parameter_types", "want a list of type names")
					} else {
						for i, e := range pt.Content {
							t.ParamTypes = append(t.ParamTypes, p.str(e, fmt.Sprintf("%s.target.signature.parameter_types.%d", key, i)))
						}
					}
				}
			}
		}
	}
	if sn := m["span"]; sn == nil {
		p.bad(n, key, "missing span")
	} else {
		p.span(key+".span", sn, t)
	}
	return t
}

func (p *fileParser) span(key string, n *yaml.Node, t *Target) {
	m := p.mapping(n, key, "name", "name_source", "kind", "attributes", "status")
	if m == nil {
		return
	}
	t.Name = p.str(m["name"], key+".name")
	if t.Name == "" {
		p.bad(n, key+".name", "missing: the span's name")
	}
	if ns := m["name_source"]; ns != nil {
		t.NameSource = p.expr(ns, key+".name_source")
	}
	if k := m["kind"]; k != nil {
		if kind, ok := kinds[strings.ToLower(p.str(k, key+".kind"))]; ok {
			t.Kind = kind
		} else {
			p.bad(k, key+".kind", "want internal, server, client, producer or consumer; found %q", k.Value)
		}
	}
	if as := m["attributes"]; as != nil {
		if as.Kind != yaml.SequenceNode {
			p.bad(as, key+".attributes", "want a list of attributes")
		} else {
			for i, a := range as.Content {
				if attr, ok := p.attr(fmt.Sprintf("%s.attributes.%d", key, i), a); ok {
					t.Attrs = append(t.Attrs, attr)
				}
			}
		}
	}
	if st := m["status"]; st != nil {
		sm := p.mapping(st, key+".status", "rules")
		if rs := sm["rules"]; rs != nil {
			if rs.Kind != yaml.SequenceNode {
				p.bad(rs, key+".status.rules", "want a list of rules")
				return
			}
			for i, r := range rs.Content {
				if rule, ok := p.rule(fmt.Sprintf("%s.status.rules.%d", key, i), r); ok {
					t.Status = append(t.Status, rule)
				}
			}
		}
	}
}

// expr parses the expression of node n, its errors placed in the file.
func (p *fileParser) expr(n *yaml.Node, key string) *Expr {
	src := p.str(n, key)
	e, err := ParseExpr(src)
	if err != nil {
		se, _ := err.(*SyntaxError)
		col := n.Column
		if se != nil {
			col += sourceCols(src, se.Col-1, n.Style)
			p.errs = append(p.errs, &Error{Path: p.path, Line: n.Line, Col: col, Key: key, Msg: fmt.Sprintf("%s in %q", se.Msg, src)})
		} else {
			p.bad(n, key, "%v", err)
		}
		return nil
	}
	return e
}

// sourceCols is how many columns the first runes of a scalar's value take
// in the file, its opening quote included: in a double-quoted scalar, "
// and \ and control characters are written escaped (two columns), in a
// single-quoted one ' is written twice.
func sourceCols(value string, runes int, style yaml.Style) int {
	cols := 0
	switch {
	case style&yaml.DoubleQuotedStyle != 0:
		cols = 1
		for _, r := range value {
			if runes == 0 {
				break
			}
			runes--
			cols++
			if r == '"' || r == '\\' || r < 0x20 {
				cols++
			}
		}
		return cols + runes
	case style&yaml.SingleQuotedStyle != 0:
		cols = 1
		for _, r := range value {
			if runes == 0 {
				break
			}
			runes--
			cols++
			if r == '\'' {
				cols++
			}
		}
		return cols + runes
	}
	return runes
}

var attrTypes = map[string]bool{"string": true, "bool": true, "int": true, "double": true,
	"string_array": true, "bool_array": true, "int_array": true, "double_array": true}

func (p *fileParser) attr(key string, n *yaml.Node) (Attr, bool) {
	m := p.mapping(n, key, "name", "value", "value_source", "type")
	if m == nil {
		return Attr{}, false
	}
	a := Attr{Name: p.str(m["name"], key+".name"), Type: "string"}
	if a.Name == "" {
		p.bad(n, key+".name", "missing: the attribute's name")
	}
	if tn := m["type"]; tn != nil {
		a.Type = p.str(tn, key+".type")
		if !attrTypes[a.Type] {
			p.bad(tn, key+".type", "want string, bool, int, double, string_array, bool_array, int_array or double_array; found %q", a.Type)
			return Attr{}, false
		}
	}
	v, vs := m["value"], m["value_source"]
	switch {
	case v != nil && vs != nil:
		p.bad(n, key, "want value or value_source, not both")
	case v != nil:
		val, ok := staticValue(scalar(v), a.Type)
		if !ok {
			p.bad(v, key+".value", "want a %s; found %s", strings.ReplaceAll(a.Type, "_array", " list"), found(v))
			return Attr{}, false
		}
		a.Value = val
	case vs != nil:
		a.Expr = p.expr(vs, key+".value_source")
		if a.Expr == nil {
			return Attr{}, false
		}
		a.AtReturn = a.Expr.Uses("return")
	default:
		p.bad(n, key, "want value or value_source")
		return Attr{}, false
	}
	return a, a.Name != ""
}

func (p *fileParser) rule(key string, n *yaml.Node) (StatusRule, bool) {
	m := p.mapping(n, key, "condition", "code", "description")
	if m == nil {
		return StatusRule{}, false
	}
	r := StatusRule{Description: p.str(m["description"], key+".description")}
	c := m["condition"]
	if c == nil {
		p.bad(n, key, "missing condition")
		return r, false
	}
	if r.Cond = p.expr(c, key+".condition"); r.Cond == nil {
		return r, false
	}
	switch code := p.str(m["code"], key+".code"); strings.ToLower(code) {
	case StatusOK, StatusError, StatusUnset:
		r.Code = strings.ToLower(code)
	default:
		p.bad(n, key+".code", "want ok, error or unset; found %q", code)
		return r, false
	}
	return r, true
}

// scalar is a YAML value as the format reads it: a scalar's, or a list
// of them.
func scalar(n *yaml.Node) any {
	if n.Kind == yaml.SequenceNode {
		out := make([]any, len(n.Content))
		for i, e := range n.Content {
			out[i] = scalar(e)
		}
		return out
	}
	var v any
	if n.Kind != yaml.ScalarNode || n.Decode(&v) != nil {
		return n.Value
	}
	switch x := v.(type) {
	case int:
		return int64(x)
	}
	return v
}

// found describes what a node holds, for an error.
func found(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	return strconv.Quote(n.Value)
}

// MethodDesc is what a target is matched against: a traced method's
// assembly, declaring type and name (Namespace.Type, Method), return type
// and parameter types as clrotel names them (Int32, String,
// Acme.Shop.Item), and as upstream's files write them (Meta: the metadata
// form, Acme.Repo`1, Acme.Outer+Inner, System.Int32, !0, !!0; nil when not
// known). A target's names and types may be written either way.
type MethodDesc struct {
	Assembly, Type, Method string
	ReturnType             string
	ParamTypes             []string
	Meta                   *naming.MetaForm
}

// Match returns the first target that selects m, or nil.
func (r *Rules) Match(m MethodDesc) *Target {
	if r == nil {
		return nil
	}
	for _, t := range r.Targets {
		if t.matches(m) {
			return t
		}
	}
	return nil
}

func (t *Target) matches(m MethodDesc) bool {
	meta := m.Meta
	if meta == nil {
		meta = &naming.MetaForm{}
	}
	if t.Assembly != "" && !naming.Match(t.Assembly, m.Assembly) ||
		!naming.Match(t.Type, m.Type) && !naming.Match(t.Type, meta.Type) ||
		!naming.Match(t.Method, m.Method) && !naming.Match(t.Method, meta.Method) {
		return false
	}
	if !t.HasSignature {
		return true
	}
	if !sameType(t.ReturnType, m.ReturnType) && !sameMetaType(t.ReturnType, meta.ReturnType) || len(t.ParamTypes) != len(m.ParamTypes) {
		return false
	}
	for i, pt := range t.ParamTypes {
		if !sameType(pt, m.ParamTypes[i]) && (i >= len(meta.ParamTypes) || !sameMetaType(pt, meta.ParamTypes[i])) {
			return false
		}
	}
	return true
}

// sameType compares a type as the file writes it (System.String, a glob)
// with clrotel's name for it (String): the runtime's own types clrotel
// names without their System namespace.
func sameType(file, ours string) bool {
	if file == "" {
		return ours == "" || ours == "Void"
	}
	return naming.Match(file, ours) || !strings.Contains(ours, ".") && naming.Match(file, "System."+ours)
}

// sameMetaType compares a type as the file writes it with its metadata
// form ("" when not known).
func sameMetaType(file, meta string) bool {
	if meta == "" {
		return false
	}
	if file == "" {
		return meta == "System.Void"
	}
	return naming.Match(file, meta)
}

// Unmatched is the warning at exit on a target that shaped no span.
func (t *Target) Unmatched() string {
	return fmt.Sprintf("no-code target at %s:%d (%s.%s) shaped no span: no method it selects was called while traced (check its names and signature)", t.Path, t.Line, t.Type, t.Method)
}
