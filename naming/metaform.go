package naming

import (
	"strconv"
	"strings"
)

// The metadata form is how OpenTelemetry .NET's no-code instrumentation
// names the methods it selects (its native profiler's GetSigTypeTokName and
// FindTypeDefByName, upstream commit 338fc9e0): a type by its metadata
// name, namespace first, a nested type after its enclosing type's with '+'
// (Acme.Outer+Inner), a generic type with its arity (Acme.Repo`1); in a
// signature the runtime's own types under System (System.Int32,
// System.String, System.Void), a generic instance as Name`N[Arg,Arg], an
// array as T[], by-ref T&, a pointer T*, and a generic parameter by its
// position: !0 of the type, !!0 of the method. Span names use the readable
// form (FormatType); this one is what a no-code target is matched against.

// MetaForm is a method in the metadata form.
type MetaForm struct {
	Type       string // Acme.Shop.Repo`1, Acme.Outer+Inner
	Method     string // Find (no generic arguments)
	ReturnType string // System.Void, !!0
	ParamTypes []string
}

// MetadataForm returns m in the metadata form, from its signature and its
// module's metadata (m must come from this Resolver).
func (r *Resolver) MetadataForm(m *Method) (MetaForm, error) {
	mod, err := r.module(m.ModuleID)
	if err != nil {
		return MetaForm{}, err
	}
	n := mod.namer()
	out := MetaForm{Type: MetadataTypeName(n, m.OwnerToken), Method: m.Name, ReturnType: FormatMetadata(m.Sig.Ret, n)}
	out.ParamTypes = make([]string, len(m.Sig.Params))
	for i, p := range m.Sig.Params {
		out.ParamTypes[i] = FormatMetadata(p, n)
	}
	return out, nil
}

// MetadataTypeName returns the metadata form of a TypeDef or TypeRef
// token's name: enclosing types joined by '+', arity suffixes kept (from
// NestedParts when n implements it; else n's name as it gives it).
func MetadataTypeName(n TypeNamer, token uint32) string {
	if nn, ok := n.(NestedNamer); ok {
		if names, arities, ok := nn.NestedParts(token); ok && len(names) > 0 {
			var b strings.Builder
			for i, name := range names {
				if i > 0 {
					b.WriteByte('+')
				}
				b.WriteString(name)
				if i < len(arities) && arities[i] > 0 {
					b.WriteByte('`')
					b.WriteString(strconv.Itoa(arities[i]))
				}
			}
			return b.String()
		}
	}
	if n != nil {
		if name, err := n.TypeName(token); err == nil {
			return name
		}
	}
	return "?0x" + strconv.FormatUint(uint64(token), 16)
}

// FormatMetadata formats t in the metadata form.
func FormatMetadata(t Type, n TypeNamer) string {
	f := metaFormatter{formatter: formatter{n: n}}
	f.typ(t, 0)
	return f.b.String()
}

type metaFormatter struct{ formatter }

func (f *metaFormatter) typ(t Type, depth int) {
	if !f.spend(1) {
		return
	}
	if depth > maxSigDepth {
		f.str("...")
		return
	}
	if p, ok := primitiveName(t.Kind); ok {
		f.str("System." + p)
		return
	}
	elem := func() {
		if t.Elem == nil {
			f.ch('?')
			return
		}
		f.typ(*t.Elem, depth+1)
	}
	switch t.Kind {
	case ElemClass, ElemValueType:
		if t.Token>>24 == 0x1b && f.n != nil {
			if blob, err := f.n.TypeSpec(t.Token); err == nil && f.spend(len(blob)) {
				if ts, err := ParseTypeSpec(blob); err == nil {
					f.typ(ts, depth+1)
					return
				}
			}
		}
		f.str(MetadataTypeName(f.n, t.Token))
	case ElemVar:
		f.str("!" + strconv.FormatUint(uint64(t.Index), 10))
	case ElemMVar:
		f.str("!!" + strconv.FormatUint(uint64(t.Index), 10))
	case ElemPtr:
		elem()
		f.ch('*')
	case ElemByRef:
		elem()
		f.ch('&')
	case ElemPinned:
		elem()
	case ElemSZArray:
		elem()
		f.str("[]")
	case ElemArray:
		elem()
		f.ch('[')
		for i := uint32(1); i < t.Rank && i < maxArrayRank; i++ {
			f.ch(',')
		}
		f.ch(']')
	case ElemGenericInst:
		elem()
		f.ch('[')
		for i, a := range t.Args {
			if f.cut {
				return
			}
			if i > 0 {
				f.ch(',')
			}
			f.typ(a, depth+1)
		}
		f.ch(']')
	default:
		f.str(t.Kind.String())
	}
}
