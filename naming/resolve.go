package naming

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/clrotel/clrotel/internal/memo"
)

// Metadata reads one module's metadata tables (IMetaDataImport).
type Metadata interface {
	// MethodProps returns a MethodDef's name, owning TypeDef and signature.
	MethodProps(md uint32) (name string, owner uint32, sig []byte, err error)
	// TypeDefName returns a TypeDef's name as stored ("Namespace.Name`1").
	TypeDefName(td uint32) (string, error)
	// EnclosingClass returns the TypeDef a nested type is declared in, or 0.
	EnclosingClass(td uint32) uint32
	// TypeRefName returns a TypeRef's name and its resolution scope (a
	// TypeRef token for a nested type).
	TypeRefName(tr uint32) (name string, scope uint32, err error)
	// TypeSpecBlob returns a TypeSpec's signature.
	TypeSpecBlob(ts uint32) ([]byte, error)
	// Params returns a method's parameter rows (Seq 0 is the return value).
	Params(md uint32) ([]ParamRow, error)
	// GenericParams returns the names of a TypeDef's or MethodDef's generic
	// parameters in order.
	GenericParams(owner uint32) ([]string, error)
}

// ParamRow is one row of the Param table.
type ParamRow struct {
	Seq   uint32
	Name  string
	Attrs uint32 // CorParamAttr: 0x1 in, 0x2 out
}

// Function is what the runtime says of a FunctionID (GetFunctionInfo2).
type Function struct {
	Class    uint64 // ClassID of the owning type (0 when not known)
	Module   uint64
	Token    uint32 // MethodDef
	TypeArgs []uint64
}

// Class is what the runtime says of a ClassID (GetClassIDInfo2, IsArrayClass).
type Class struct {
	Module   uint64
	Token    uint32 // TypeDef
	TypeArgs []uint64
	IsArray  bool
	Elem     ElementType // arrays: element type
	ElemCls  uint64      // arrays: element ClassID (0 for primitives)
	Rank     uint32
	Parent   uint64
}

// Module is a loaded module.
type Module struct {
	Path     string // as the runtime reports it
	Assembly string
	Meta     Metadata

	// typeNames caches TypeDef names with their enclosing types' (uint32
	// token -> string). A TypeDef's name and nesting never change once the
	// module is loaded, and the cache holds at most one entry per row of
	// the TypeDef table.
	typeNames memo.Map[uint32, string]
	// typeParams caches TypeDefs' generic parameter names: every method
	// of a type asks for its type's. At most one entry per TypeDef.
	typeParams memo.Map[uint32, []string]
	fileOnce   sync.Once
	file       string
}

// genericParams are the generic parameter names of the module's TypeDef
// td, read once.
func (m *Module) genericParams(td uint32) []string {
	ps, _ := m.typeParams.Get(td, func() ([]string, error) { return m.Meta.GenericParams(td) })
	return ps
}

// fileName is the module's file name, as spans show it ("Shop.dll").
func (m *Module) fileName() string {
	m.fileOnce.Do(func() { m.file = path.Base(strings.ReplaceAll(m.Path, "\\", "/")) })
	return m.file
}

// namer resolves tokens through the module's metadata, with its cache.
func (m *Module) namer() metaNamer { return metaNamer{md: m.Meta, typeNames: &m.typeNames} }

// Runtime answers questions about loaded code.
type Runtime interface {
	Function(fid uint64) (Function, error)
	Class(cid uint64) (Class, error)
	Module(mid uint64) (*Module, error)
}

// Method is a resolved method: everything a span name is made of.
type Method struct {
	Module       string // module file name, e.g. Shop.dll
	Assembly     string
	TypeName     string // Acme.Shop.Repo<Acme.Shop.Item>
	Name         string // Find
	FunctionName string // Acme.Shop.Repo<Acme.Shop.Item>.Find<Int32>
	SelectName   string // Acme.Shop.Repo.Find: what selection globs match
	Params       string // Int32 key
	ReturnType   string
	// Shared is true when a type argument is System.__Canon: the code is
	// shared between reference-type instantiations and the exact types can
	// be read only from a frame.
	Shared bool
	// Generic is true when the method or its type has generic parameters.
	Generic bool
	// CompiledName is the FunctionName metadata gives a method the compiler
	// generated (a lambda, a local function) when FunctionName reads as
	// the user wrote it instead (AsWritten); "" for any other method.
	CompiledName string
	// Plumbing: a constructor of a type the compiler nested in the user's
	// (Plumbing): no span of its own.
	Plumbing bool

	// What value capture plans are built from.
	Sig          MethodSig
	Params2      []Param  // per signature parameter: name, in/out
	ModuleID     uint64   // the method's module
	OwnerToken   uint32   // the owning TypeDef
	ClassID      uint64   // the owning class (0 when unknown: shared code)
	TypeArgIDs   []uint64 // the owning class's type arguments
	MethodArgIDs []uint64 // the method's type arguments
}

// canon is the placeholder type of shared generic code.
const canon = "System.__Canon"

var primitiveNames = map[string]string{
	"System.Void": "Void", "System.Boolean": "Boolean", "System.Char": "Char",
	"System.SByte": "SByte", "System.Byte": "Byte", "System.Int16": "Int16",
	"System.UInt16": "UInt16", "System.Int32": "Int32", "System.UInt32": "UInt32",
	"System.Int64": "Int64", "System.UInt64": "UInt64", "System.Single": "Single",
	"System.Double": "Double", "System.String": "String", "System.IntPtr": "IntPtr",
	"System.UIntPtr": "UIntPtr", "System.Object": "Object", "System.TypedReference": "TypedReference",
}

// maxClassDepth bounds recursion through generic arguments and array
// elements of runtime classes.
const maxClassDepth = 16

// Resolver names functions and classes, caching what it learns. It is safe
// for concurrent use.
type Resolver struct {
	rt Runtime

	mu      sync.Mutex
	modules map[uint64]*Module
	classes map[uint64]string
}

// NewResolver returns a Resolver over rt.
func NewResolver(rt Runtime) *Resolver {
	return &Resolver{rt: rt, modules: map[uint64]*Module{}, classes: map[uint64]string{}}
}

// ModuleInfo returns a loaded module (cached).
func (r *Resolver) ModuleInfo(mid uint64) (*Module, error) { return r.module(mid) }

// ParamTypes names m's parameter types from its module's metadata
// (ParamTypes).
func (r *Resolver) ParamTypes(m *Method) ([]string, error) {
	mod, err := r.module(m.ModuleID)
	if err != nil {
		return nil, err
	}
	return ParamTypes(mod.Meta, m.Sig), nil
}

func (r *Resolver) module(mid uint64) (*Module, error) {
	r.mu.Lock()
	m, ok := r.modules[mid]
	r.mu.Unlock()
	if ok {
		return m, nil
	}
	m, err := r.rt.Module(mid)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.modules[mid] = m
	r.mu.Unlock()
	return m, nil
}

// Selection is what selection looks at, read cheaply (no signature
// decoding), and what was read to find it, so that MethodOf can go on
// without asking the runtime again.
type Selection struct {
	Assembly string
	Name     string // Namespace.Type.Method

	fn     Function
	mod    *Module
	method string
	owner  uint32
	sig    []byte
}

// Select returns what selection looks at: the function's assembly and
// its Namespace.Type.Method name. When the method's name cannot be read,
// the error comes with the assembly filled in.
func (r *Resolver) Select(fid uint64) (Selection, error) {
	fn, err := r.rt.Function(fid)
	if err != nil {
		return Selection{}, fmt.Errorf("naming: function %#x: %w", fid, err)
	}
	mod, err := r.module(fn.Module)
	if err != nil {
		return Selection{}, fmt.Errorf("naming: function %#x: module: %w", fid, err)
	}
	mname, owner, sig, err := mod.Meta.MethodProps(fn.Token)
	if err != nil {
		return Selection{Assembly: mod.Assembly}, fmt.Errorf("naming: method %#x: %w", fn.Token, err)
	}
	return Selection{
		Assembly: mod.Assembly, Name: mod.namer().typeDefName(owner) + "." + mname,
		fn: fn, mod: mod, method: mname, owner: owner, sig: sig,
	}, nil
}

// Method resolves a FunctionID. With class == 0 the runtime's own view of
// the function is used (shared code shows declared generic parameter names
// where the runtime says System.__Canon); otherwise class and methodArgs are
// the exact ClassID and method type arguments read from a frame.
func (r *Resolver) Method(fid, class uint64, methodArgs []uint64) (*Method, error) {
	s, err := r.Select(fid)
	if err != nil {
		return nil, err
	}
	return r.method(s, class, methodArgs)
}

// MethodOf resolves the function s was selected from, as Method(fid, 0,
// nil) would, from what Select already read.
func (r *Resolver) MethodOf(s Selection) (*Method, error) {
	if s.mod == nil {
		return nil, errors.New("naming: MethodOf: an empty selection")
	}
	return r.method(s, 0, nil)
}

// Enumeration names the iterator method fid as enumerated by an
// enumerator of the exact class enumClass. The enumerator, a type the
// compiler nested in the iterator method's, declares the type's generic
// parameters and then the method's (Roslyn's and mcs's alike): its type
// arguments are theirs. Without them (enumClass 0, or counts that do not
// add up) a generic iterator is named with its declared parameters.
func (r *Resolver) Enumeration(fid, enumClass uint64) (*Method, error) {
	s, err := r.Select(fid)
	if err != nil {
		return nil, err
	}
	typeParams := s.mod.genericParams(s.owner)
	methodParams, _ := s.mod.Meta.GenericParams(s.fn.Token)
	n := len(typeParams)
	if n+len(methodParams) == 0 {
		return r.method(s, 0, nil)
	}
	c, err := r.rt.Class(enumClass)
	if enumClass == 0 || err != nil || c.IsArray || len(c.TypeArgs) != n+len(methodParams) {
		return r.named(s, true, []uint64{}, nil)
	}
	return r.named(s, true, c.TypeArgs[:n:n], c.TypeArgs[n:])
}

func (r *Resolver) method(s Selection, class uint64, methodArgs []uint64) (*Method, error) {
	if class != 0 {
		s.fn.Class = class
		s.fn.TypeArgs = methodArgs
	}
	return r.named(s, false, nil, nil)
}

// named names the function s was selected from; with exact, as the
// instantiation of its type over typeArgs and of itself over methodArgs
// (none: its declared parameters), else from s's class and method type
// arguments.
func (r *Resolver) named(s Selection, exact bool, typeArgIDs, methodArgs []uint64) (*Method, error) {
	fn, mod, name, owner := s.fn, s.mod, s.method, s.owner
	if exact {
		fn.Class = 0
		fn.TypeArgs = methodArgs
	}
	md := mod.Meta
	sig, err := ParseMethodSig(s.sig)
	if err != nil {
		return nil, fmt.Errorf("naming: method %s (%#x): %w", name, fn.Token, err)
	}
	namer := mod.namer()
	m := &Method{
		Module:   mod.fileName(),
		Assembly: mod.Assembly,
		Name:     name,
	}

	// The owning type: its declared name and generic parameters, filled in
	// with the runtime's type arguments.
	typeKey := namer.typeDefName(owner)
	typeParams := mod.genericParams(owner)
	methodParams, _ := md.GenericParams(fn.Token)
	m.Generic = len(typeParams) > 0 || len(methodParams) > 0
	var typeArgs []string
	m.ModuleID, m.ClassID, m.MethodArgIDs = fn.Module, fn.Class, fn.TypeArgs
	switch {
	case len(typeParams) > 0 && exact:
		typeArgs = r.argNames(typeArgIDs, &m.Shared)
		m.TypeArgIDs = typeArgIDs
	case len(typeParams) > 0:
		// Without a frame the runtime cannot tell the class of code shared
		// between instantiations, and says 0.
		m.Shared = fn.Class == 0
		if c, err := r.rt.Class(fn.Class); fn.Class != 0 && err == nil && !c.IsArray {
			typeArgs = r.argNames(c.TypeArgs, &m.Shared)
			m.TypeArgIDs = c.TypeArgs
		}
	}
	methodArgs2 := r.argNames(fn.TypeArgs, &m.Shared)
	g := Generics{Type: typeArgs, Method: methodArgs2, TypeParams: typeParams, MethodParams: methodParams}

	m.TypeName = typeKey
	if len(typeParams) > 0 {
		m.TypeName = typeKey + "<" + joinArgs(typeArgs, typeParams) + ">"
		if names, arities, ok := namer.NestedParts(owner); ok {
			parts := make([]string, len(typeParams))
			for i := range parts {
				parts[i] = pick(typeArgs, typeParams, i)
			}
			if n, ok := NestedGenericName(names, arities, parts); ok {
				m.TypeName = n
			}
		}
	}
	var margs []string
	if len(methodParams) > 0 {
		margs = make([]string, len(methodParams))
		for i := range margs {
			margs[i] = pick(methodArgs2, methodParams, i)
		}
	}
	m.FunctionName = FormatMethodName(m.TypeName, name, margs)
	if strings.HasPrefix(name, "<") && compilerGenerated(md, owner, fn.Token) {
		if own, err := md.TypeDefName(owner); err == nil {
			if w, ok := AsWritten(m.TypeName, StripArity(own), name); ok {
				m.CompiledName, m.FunctionName = m.FunctionName, w
			}
		}
	}
	m.Plumbing = Plumbing(md, owner, name)
	m.SelectName = typeKey + "." + name
	m.ReturnType = FormatType(sig.Ret, namer, g)

	rows, _ := md.Params(fn.Token)
	params := make([]Param, len(sig.Params))
	for _, row := range rows {
		if row.Seq >= 1 && int(row.Seq) <= len(params) {
			params[row.Seq-1] = Param{Name: row.Name, In: row.Attrs&0x1 != 0, Out: row.Attrs&0x2 != 0}
		}
	}
	m.Params = FormatParams(sig, params, namer, g)
	m.Sig, m.Params2, m.OwnerToken = sig, params, owner
	return m, nil
}

// argNames names runtime type arguments; System.__Canon becomes "" (so the
// declared parameter name shows) and marks the method shared.
func (r *Resolver) argNames(ids []uint64, shared *bool) []string {
	if len(ids) == 0 {
		return nil
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		n := r.ClassName(id)
		if n == canon {
			*shared = true
			n = ""
		}
		out[i] = n
	}
	return out
}

func pick(args, params []string, i int) string {
	if i < len(args) && args[i] != "" {
		return args[i]
	}
	if i < len(params) && params[i] != "" {
		return params[i]
	}
	return fmt.Sprintf("!!%d", i)
}

func joinArgs(args, params []string) string {
	parts := make([]string, len(params))
	for i := range params {
		parts[i] = pick(args, params, i)
	}
	return strings.Join(parts, ", ")
}

// ClassName names a runtime class with its generic arguments, primitives by
// their CLR names: "Int32", "Acme.Shop.Item", "System.Collections.Generic.
// List<String>", "Int32[]". Unknown classes come back as "?".
func (r *Resolver) ClassName(cid uint64) string {
	return r.className(cid, 0)
}

func (r *Resolver) className(cid uint64, depth int) string {
	if cid == 0 {
		return "?"
	}
	r.mu.Lock()
	n, ok := r.classes[cid]
	r.mu.Unlock()
	if ok {
		return n
	}
	if depth > maxClassDepth {
		return "?"
	}
	n = r.buildClassName(cid, depth)
	r.mu.Lock()
	r.classes[cid] = n
	r.mu.Unlock()
	return n
}

func (r *Resolver) buildClassName(cid uint64, depth int) string {
	c, err := r.rt.Class(cid)
	if err != nil {
		return "?"
	}
	if c.IsArray {
		elem := "?"
		if c.ElemCls != 0 {
			elem = r.className(c.ElemCls, depth+1)
		} else {
			elem = FormatType(Type{Kind: c.Elem}, nil, Generics{})
		}
		if c.Rank <= 1 {
			return elem + "[]"
		}
		return elem + "[" + strings.Repeat(",", int(c.Rank-1)) + "]"
	}
	mod, err := r.module(c.Module)
	if err != nil {
		return "?"
	}
	name := mod.namer().typeDefName(c.Token)
	if p, ok := primitiveNames[name]; ok {
		return p
	}
	if len(c.TypeArgs) == 0 {
		return name
	}
	args := make([]string, len(c.TypeArgs))
	for i, a := range c.TypeArgs {
		args[i] = r.className(a, depth+1)
	}
	if names, arities, ok := mod.namer().NestedParts(c.Token); ok {
		if n, ok := NestedGenericName(names, arities, args); ok {
			return n
		}
	}
	return name + "<" + strings.Join(args, ", ") + ">"
}

// metaNamer resolves signature tokens through one module's metadata.
type metaNamer struct {
	md        Metadata
	typeNames *memo.Map[uint32, string] // the module's TypeDef names; nil: not cached
}

var errTokenKind = errors.New("not a TypeDef, TypeRef or TypeSpec token")

func (n metaNamer) TypeName(token uint32) (string, error) {
	switch token & 0xff000000 {
	case 0x02000000:
		return n.typeDefName(token), nil
	case 0x01000000:
		return n.typeRefName(token, 0), nil
	}
	return "", fmt.Errorf("naming: token %#x: %w", token, errTokenKind)
}

func (n metaNamer) TypeSpec(token uint32) ([]byte, error) {
	return n.md.TypeSpecBlob(token)
}

// typeDefName is the full name of a TypeDef, enclosing types joined by '.',
// arity suffixes removed, primitives by CLR name.
func (n metaNamer) typeDefName(td uint32) string {
	full := n.qualified(td, 0)
	if p, ok := primitiveNames[full]; ok {
		return p
	}
	return full
}

// qualified is a TypeDef's name after its enclosing types' (at most
// maxClassDepth in all), arity suffixes removed; cached per module.
func (n metaNamer) qualified(td uint32, depth int) string {
	if td == 0 {
		return ""
	}
	if n.typeNames == nil {
		return n.readQualified(td, depth)
	}
	name, _ := n.typeNames.Get(td, func() (string, error) { return n.readQualified(td, depth), nil })
	return name
}

func (n metaNamer) readQualified(td uint32, depth int) string {
	name, err := n.md.TypeDefName(td)
	if err != nil {
		name = fmt.Sprintf("?%#x", td)
	}
	name = StripArity(name)
	if outer := n.md.EnclosingClass(td); outer != 0 && depth+1 < maxClassDepth {
		name = n.qualified(outer, depth+1) + "." + name
	}
	return name
}

func (n metaNamer) typeRefName(tr uint32, depth int) string {
	name, scope, err := n.md.TypeRefName(tr)
	if err != nil {
		return fmt.Sprintf("?%#x", tr)
	}
	name = StripArity(name)
	if scope&0xff000000 == 0x01000000 && depth < maxClassDepth {
		name = n.typeRefName(scope, depth+1) + "." + name
	}
	if p, ok := primitiveNames[name]; ok {
		return p
	}
	return name
}

// ParamTypes formats the types of sig's parameters, tokens named through
// md (the module the signature comes from); generic parameters stay
// unnamed.
func ParamTypes(md Metadata, sig MethodSig) []string {
	out := make([]string, len(sig.Params))
	for i, t := range sig.Params {
		out[i] = FormatType(t, metaNamer{md: md}, Generics{})
	}
	return out
}
