package naming

import (
	"strconv"
	"strings"
)

// TypeNamer resolves the tokens a signature refers to.
type TypeNamer interface {
	// TypeName returns the full name of a TypeDef or TypeRef token
	// ("Namespace.Outer.Inner", arity suffixes removed).
	TypeName(token uint32) (string, error)
	// TypeSpec returns the blob of a TypeSpec token.
	TypeSpec(token uint32) ([]byte, error)
}

// Generics holds what to print for VAR (type) and MVAR (method) generic
// parameters: the actual type argument where Type/Method has a non-empty
// entry, else the declared parameter name, else !0 / !!0.
type Generics struct {
	Type, Method             []string
	TypeParams, MethodParams []string
}

func (g Generics) name(method bool, i uint32) string {
	args, params, prefix := g.Type, g.TypeParams, "!"
	if method {
		args, params, prefix = g.Method, g.MethodParams, "!!"
	}
	if int(i) < len(args) && args[i] != "" {
		return args[i]
	}
	if int(i) < len(params) && params[i] != "" {
		return params[i]
	}
	return prefix + strconv.FormatUint(uint64(i), 10)
}

// Param is what FormatParams needs of a parameter beyond its type.
type Param struct {
	Name    string
	Out, In bool
}

// StripArity removes generic arity suffixes: "List`1" -> "List",
// "Outer`1.Inner`2" -> "Outer.Inner".
func StripArity(name string) string {
	if !strings.Contains(name, "`") {
		return name
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if name[i] == '`' {
			j := i + 1
			for j < len(name) && name[j] >= '0' && name[j] <= '9' {
				j++
			}
			if j > i+1 {
				i = j - 1
				continue
			}
		}
		b.WriteByte(name[i])
	}
	return b.String()
}

// FormatType renders a type by the project's naming rules: primitives by CLR
// names, other types by full name, generic instantiations with <...>, arrays
// as T[] and T[,], by-ref as T&, pointers as T*. n may be nil when the type
// holds no tokens.
func FormatType(t Type, n TypeNamer, g Generics) string {
	var b strings.Builder
	formatType(&b, t, n, g, 0)
	return b.String()
}

func formatType(b *strings.Builder, t Type, n TypeNamer, g Generics, depth int) {
	if depth > maxSigDepth {
		b.WriteString("...")
		return
	}
	if p, ok := primNames[t.Kind]; ok {
		b.WriteString(p)
		return
	}
	switch t.Kind {
	case ElemClass, ElemValueType:
		b.WriteString(tokenName(t.Token, n, g, depth))
	case ElemVar:
		b.WriteString(g.name(false, t.Index))
	case ElemMVar:
		b.WriteString(g.name(true, t.Index))
	case ElemPtr:
		formatElem(b, t, n, g, depth)
		b.WriteByte('*')
	case ElemByRef:
		formatElem(b, t, n, g, depth)
		b.WriteByte('&')
	case ElemPinned:
		formatElem(b, t, n, g, depth)
	case ElemSZArray:
		formatElem(b, t, n, g, depth)
		b.WriteString("[]")
	case ElemArray:
		formatElem(b, t, n, g, depth)
		b.WriteByte('[')
		for i := uint32(1); i < t.Rank && i < 32; i++ {
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case ElemGenericInst:
		formatElem(b, t, n, g, depth)
		b.WriteByte('<')
		for i, a := range t.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			formatType(b, a, n, g, depth+1)
		}
		b.WriteByte('>')
	case ElemFnPtr:
		b.WriteString("fnptr ")
		if t.Method != nil {
			formatType(b, t.Method.Ret, n, g, depth+1)
			b.WriteByte('(')
			for i, p := range t.Method.Params {
				if i > 0 {
					b.WriteString(", ")
				}
				formatType(b, p, n, g, depth+1)
			}
			b.WriteByte(')')
		}
	default:
		b.WriteString(t.Kind.String())
	}
}

func formatElem(b *strings.Builder, t Type, n TypeNamer, g Generics, depth int) {
	if t.Elem == nil {
		b.WriteByte('?')
		return
	}
	formatType(b, *t.Elem, n, g, depth+1)
}

func tokenName(tok uint32, n TypeNamer, g Generics, depth int) string {
	if n == nil {
		return "?" + strconv.FormatUint(uint64(tok), 16)
	}
	if tok&0xff000000 == 0x1b000000 {
		blob, err := n.TypeSpec(tok)
		if err != nil {
			return "?" + strconv.FormatUint(uint64(tok), 16)
		}
		t, err := ParseTypeSpec(blob)
		if err != nil {
			return "?" + strconv.FormatUint(uint64(tok), 16)
		}
		var b strings.Builder
		formatType(&b, t, n, g, depth+1)
		return b.String()
	}
	name, err := n.TypeName(tok)
	if err != nil {
		return "?" + strconv.FormatUint(uint64(tok), 16)
	}
	return StripArity(name)
}

// FormatMethodName joins a formatted owner type, a method name and the
// method's generic arguments: "Acme.Repo<Acme.Item>.Find<Int32>".
func FormatMethodName(owner, method string, methodArgs []string) string {
	name := method
	if owner != "" {
		name = owner + "." + method
	}
	if len(methodArgs) > 0 {
		name += "<" + strings.Join(methodArgs, ", ") + ">"
	}
	return name
}

// FormatParams renders a parameter list: "Acme.Shop.Item item, Int32
// quantity". By-ref parameters show as "ref T x", "out T x" or "in T x";
// unnamed ones as arg0, arg1, ...; vararg parameters after the sentinel are
// followed by "...".
func FormatParams(sig MethodSig, params []Param, n TypeNamer, g Generics) string {
	var b strings.Builder
	for i, t := range sig.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		if i == sig.VarArgStart {
			b.WriteString("..., ")
		}
		var p Param
		if i < len(params) {
			p = params[i]
		}
		if t.Kind == ElemByRef && t.Elem != nil {
			switch {
			case p.Out && !p.In:
				b.WriteString("out ")
			case p.In && !p.Out:
				b.WriteString("in ")
			default:
				b.WriteString("ref ")
			}
			formatType(&b, *t.Elem, n, g, 1)
		} else {
			formatType(&b, t, n, g, 0)
		}
		b.WriteByte(' ')
		if p.Name != "" {
			b.WriteString(p.Name)
		} else {
			b.WriteString("arg" + strconv.Itoa(i))
		}
	}
	if sig.CallConv == 0x05 && sig.VarArgStart < 0 {
		if len(sig.Params) > 0 {
			b.WriteString(", ")
		}
		b.WriteString("...")
	}
	return b.String()
}
