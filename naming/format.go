package naming

import (
	"strconv"
	"strings"
)

// TypeNamer resolves what a signature refers to by token.
type TypeNamer interface {
	// TypeName returns the full name of a TypeDef or TypeRef token:
	// "Namespace.Outer.Inner" for nested types (the implementation joins
	// enclosing types with '.'), with generic arity suffixes (`1) removed.
	TypeName(token uint32) (string, error)
	// TypeSpec returns the blob of a TypeSpec token.
	TypeSpec(token uint32) ([]byte, error)
}

// Generics holds the names to substitute for VAR (type) and MVAR (method)
// generic parameters. Parameter i shows as Type[i] (Method[i] for MVAR)
// when that is present and non-empty, else as its declared name
// TypeParams[i] (MethodParams[i]), else as !i (!!i).
type Generics struct {
	Type, Method             []string // actual type arguments, formatted
	TypeParams, MethodParams []string // declared parameter names: T, TKey, ...
}

// name returns what generic parameter i of the type (or method) shows as.
func (g Generics) name(method bool, i uint32) string {
	args, params, prefix := g.Type, g.TypeParams, "!"
	if method {
		args, params, prefix = g.Method, g.MethodParams, "!!"
	}
	if uint64(i) < uint64(len(args)) && args[i] != "" {
		return args[i]
	}
	if uint64(i) < uint64(len(params)) && params[i] != "" {
		return params[i]
	}
	return prefix + strconv.FormatUint(uint64(i), 10)
}

// Param is what FormatParams shows of a parameter besides its type.
type Param struct {
	Name string // empty: shown as arg0, arg1, ... by position
	// Out and In come from the parameter's [Out] and [In] attributes; they
	// choose how a by-ref parameter shows: out T, in T, or ref T.
	Out, In bool
}

// Formatting limits: hostile metadata (a TypeSpec that refers to itself,
// say) must not make a name take unbounded time or space.
const (
	maxFormatWork = 1 << 14 // types visited plus TypeSpec bytes decoded
	maxFormatLen  = 8 << 10 // bytes of output, give or take closing brackets
)

// formatter writes types into b, resolving tokens through n (which may be
// nil) and generic parameters through g.
type formatter struct {
	b    strings.Builder
	n    TypeNamer
	g    Generics
	work int
	cut  bool // a limit was hit and "..." written
}

// spend charges cost to the work budget and reports whether formatting
// may go on; the first time it may not, it writes "...".
func (f *formatter) spend(cost int) bool {
	if f.cut {
		return false
	}
	f.work += cost
	if f.work > maxFormatWork || f.b.Len() > maxFormatLen {
		f.cut = true
		f.b.WriteString("...")
		return false
	}
	return true
}

// str and ch write to the output unless a limit was hit: then "..." ends
// it.
func (f *formatter) str(s string) {
	if !f.cut {
		f.b.WriteString(s)
	}
}

func (f *formatter) ch(c byte) {
	if !f.cut {
		f.b.WriteByte(c)
	}
}

// primitiveName returns the CLR name of a primitive element type.
func primitiveName(k ElementType) (string, bool) {
	switch k {
	case ElemVoid:
		return "Void", true
	case ElemBoolean:
		return "Boolean", true
	case ElemChar:
		return "Char", true
	case ElemI1:
		return "SByte", true
	case ElemU1:
		return "Byte", true
	case ElemI2:
		return "Int16", true
	case ElemU2:
		return "UInt16", true
	case ElemI4:
		return "Int32", true
	case ElemU4:
		return "UInt32", true
	case ElemI8:
		return "Int64", true
	case ElemU8:
		return "UInt64", true
	case ElemR4:
		return "Single", true
	case ElemR8:
		return "Double", true
	case ElemString:
		return "String", true
	case ElemI:
		return "IntPtr", true
	case ElemU:
		return "UIntPtr", true
	case ElemObject:
		return "Object", true
	case ElemTypedByRef:
		return "TypedReference", true
	}
	return "", false
}

// shortName maps the full name of a primitive type, as a TypeRef to it
// would give it, to its CLR name, so that System.Int32 shows as Int32
// however a signature spells it.
func shortName(full string) string {
	rest, ok := strings.CutPrefix(full, "System.")
	if !ok {
		return full
	}
	switch rest {
	case "Void", "Boolean", "Char", "SByte", "Byte", "Int16", "UInt16", "Int32", "UInt32",
		"Int64", "UInt64", "Single", "Double", "String", "IntPtr", "UIntPtr", "Object", "TypedReference":
		return rest
	}
	return full
}

func (f *formatter) typ(t Type, depth int) {
	if !f.spend(1) {
		return
	}
	if depth > maxSigDepth {
		f.str("...")
		return
	}
	if p, ok := primitiveName(t.Kind); ok {
		f.str(p)
		return
	}
	switch t.Kind {
	case ElemClass, ElemValueType:
		f.token(t.Token, depth)
	case ElemVar:
		f.str(f.g.name(false, t.Index))
	case ElemMVar:
		f.str(f.g.name(true, t.Index))
	case ElemPtr:
		f.elem(t, depth)
		f.ch('*')
	case ElemByRef:
		f.elem(t, depth)
		f.ch('&')
	case ElemPinned:
		f.elem(t, depth)
	case ElemSZArray:
		f.elem(t, depth)
		f.str("[]")
	case ElemArray:
		f.elem(t, depth)
		f.ch('[')
		if t.Rank == 1 {
			f.ch('*') // as .NET shows a rank-1 array that is not a vector
		}
		for i := uint32(1); i < t.Rank && i < maxArrayRank; i++ {
			f.ch(',')
		}
		f.ch(']')
	case ElemGenericInst:
		if f.nestedInst(t, depth) {
			return
		}
		f.elem(t, depth)
		f.ch('<')
		for i, a := range t.Args {
			if f.cut {
				return
			}
			if i > 0 {
				f.str(", ")
			}
			f.typ(a, depth+1)
		}
		f.ch('>')
	case ElemFnPtr:
		f.str("fnptr ")
		if t.Method == nil {
			f.str("?")
			return
		}
		f.typ(t.Method.Ret, depth+1)
		f.ch('(')
		for i, p := range t.Method.Params {
			if f.cut {
				return
			}
			if i > 0 {
				f.str(", ")
			}
			if i == t.Method.VarArgStart {
				f.str("..., ")
			}
			f.typ(p, depth+1)
		}
		if t.Method.CallConv == ccVarArg && t.Method.VarArgStart < 0 {
			if len(t.Method.Params) > 0 {
				f.str(", ")
			}
			f.str("...")
		}
		f.ch(')')
	default:
		f.str(t.Kind.String())
	}
}

// nestedInst writes an instantiated nested type of a generic type with
// each argument on the type that declares it (Cage<Cat>.Door), and
// reports whether it did.
func (f *formatter) nestedInst(t Type, depth int) bool {
	nn, ok := f.n.(NestedNamer)
	if !ok || t.Elem == nil || (t.Elem.Kind != ElemClass && t.Elem.Kind != ElemValueType) {
		return false
	}
	names, arities, ok := nn.NestedParts(t.Elem.Token)
	if !ok || len(names) < 2 {
		return false
	}
	args := make([]string, len(t.Args))
	for i, a := range t.Args {
		sub := formatter{n: f.n, g: f.g, work: f.work}
		sub.typ(a, depth+1)
		f.work = sub.work
		args[i] = sub.b.String()
	}
	name, ok := NestedGenericName(names, arities, args)
	if !ok {
		return false
	}
	f.str(name)
	return true
}

func (f *formatter) elem(t Type, depth int) {
	if t.Elem == nil {
		f.ch('?')
		return
	}
	f.typ(*t.Elem, depth+1)
}

// token writes the name of a TypeDef, TypeRef or TypeSpec token; one the
// namer cannot name shows as ?0x01000005.
func (f *formatter) token(tok uint32, depth int) {
	if f.n != nil {
		if tok>>24 == 0x1b {
			if blob, err := f.n.TypeSpec(tok); err == nil && f.spend(len(blob)) {
				if t, err := ParseTypeSpec(blob); err == nil {
					f.typ(t, depth+1)
					return
				}
			}
		} else if name, err := f.n.TypeName(tok); err == nil {
			f.str(shortName(StripArity(name)))
			return
		}
	}
	if f.cut {
		return
	}
	f.str("?0x")
	s := strconv.FormatUint(uint64(tok), 16)
	for range 8 - len(s) {
		f.ch('0')
	}
	f.str(s)
}

// StripArity removes generic arity suffixes: "List`1" becomes "List", and
// "Outer`2+Inner`1" or "Outer`2.Inner`1" keep their separator and lose
// both suffixes. A backtick not followed by digits that end a name segment
// is kept. Without a backtick, name is returned as is.
func StripArity(name string) string {
	i := strings.IndexByte(name, '`')
	if i < 0 {
		return name
	}
	var b strings.Builder
	b.Grow(len(name))
	for i >= 0 {
		j := i + 1
		for j < len(name) && name[j] >= '0' && name[j] <= '9' {
			j++
		}
		if j > i+1 && (j == len(name) || !identByte(name[j])) {
			b.WriteString(name[:i]) // an arity suffix: drop it
		} else {
			b.WriteString(name[:j])
		}
		name = name[j:]
		i = strings.IndexByte(name, '`')
	}
	b.WriteString(name)
	return b.String()
}

// identByte reports whether c may continue an identifier (any byte of a
// multi-byte UTF-8 sequence counts).
func identByte(c byte) bool {
	return c == '_' || c == '`' || c >= 0x80 ||
		'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// FormatType formats a type by the project's naming rules: primitives by
// CLR name (Int32, String), other types by full name from n
// (Acme.Shop.Item), generic instantiations as List<Int32>, arrays as T[],
// T[][] and T[,], by-refs as T&, pointers as T*, function pointers as
// fnptr Int32(String), generic parameters as g says. Custom modifiers and
// PINNED are left out. n may be nil when t holds no tokens; tokens it
// cannot name show as ?0x01000005.
func FormatType(t Type, n TypeNamer, g Generics) string {
	f := formatter{n: n, g: g}
	f.typ(t, 0)
	return f.b.String()
}

// FormatMethodName joins a formatted owner type, a method name and the
// method's formatted generic arguments: "Acme.Repo<Acme.Item>.Find<Int32>",
// or "Owner.Method" without arguments, or just the method without owner.
func FormatMethodName(owner, method string, methodArgs []string) string {
	var b strings.Builder
	size := len(owner) + 1 + len(method)
	for _, a := range methodArgs {
		size += len(a) + 2
	}
	b.Grow(size)
	if owner != "" {
		b.WriteString(owner)
		b.WriteByte('.')
	}
	b.WriteString(method)
	if len(methodArgs) > 0 {
		b.WriteByte('<')
		for i, a := range methodArgs {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(a)
		}
		b.WriteByte('>')
	}
	return b.String()
}

// FormatParams formats sig's parameter list, without parentheses:
// "Acme.Shop.Item item, Int32 quantity". params[i] names parameter i; a
// missing or empty name shows as arg0, arg1, ... by index. By-ref
// parameters show as "out T x" (Out without In), "in T x" (In without Out)
// or "ref T x". A vararg signature shows "..." where the variable arguments
// start: after the fixed parameters of a definition ("Int32 a, ..."), or
// at the SENTINEL of a call site ("Int32 a, ..., String arg1").
func FormatParams(sig MethodSig, params []Param, n TypeNamer, g Generics) string {
	f := formatter{n: n, g: g}
	for i, t := range sig.Params {
		if f.cut {
			break
		}
		if i > 0 {
			f.str(", ")
		}
		if i == sig.VarArgStart {
			f.str("..., ")
		}
		var p Param
		if i < len(params) {
			p = params[i]
		}
		if t.Kind == ElemByRef && t.Elem != nil {
			switch {
			case p.Out && !p.In:
				f.str("out ")
			case p.In && !p.Out:
				f.str("in ")
			default:
				f.str("ref ")
			}
			f.typ(*t.Elem, 1)
		} else {
			f.typ(t, 0)
		}
		f.ch(' ')
		if p.Name != "" {
			f.str(p.Name)
		} else {
			f.str("arg")
			f.str(strconv.Itoa(i))
		}
	}
	if sig.CallConv == ccVarArg && sig.VarArgStart < 0 && !f.cut {
		if len(sig.Params) > 0 {
			f.str(", ")
		}
		f.str("...")
	}
	return f.b.String()
}
