package naming

import (
	"strconv"
	"strings"
)

// A nested type of a generic type repeats its enclosing types' generic
// parameters in metadata (Cage`1/Door has one parameter, T) and adds its
// own, counted by its arity suffix (Door`1 adds one). C# and debuggers
// show each argument on the type that declares it: Cage<Cat>.Door, not
// Cage.Door<Cat>.

// NestedNamer is implemented by TypeNamers that can tell how a nested
// type's generic arguments split between it and its enclosing types.
type NestedNamer interface {
	// NestedParts returns the names of a TypeDef or TypeRef token's
	// enclosing types and its own, outermost first (the first with its
	// namespace), each without its arity suffix, and how many generic
	// parameters each adds. ok is false when that is not known.
	NestedParts(token uint32) (names []string, arities []int, ok bool)
}

// splitArity returns a metadata type name without its arity suffix
// (Cage`1 -> Cage) and the arity (0 without one).
func splitArity(name string) (string, int) {
	i := strings.LastIndexByte(name, '`')
	if i < 0 {
		return name, 0
	}
	n, err := strconv.Atoi(name[i+1:])
	if err != nil || n < 0 {
		return name, 0
	}
	return name[:i], n
}

// NestedGenericName places the generic arguments args on the types of a
// nesting chain (names and arities from NestedParts): Cage<Cat>.Door. It
// returns false when the arities do not add up to len(args), or when all
// arguments belong to the innermost type (the usual Name<args> is right
// then).
func NestedGenericName(names []string, arities []int, args []string) (string, bool) {
	if len(names) < 2 || len(names) != len(arities) {
		return "", false
	}
	total := 0
	for _, a := range arities {
		total += a
	}
	if total != len(args) || arities[len(arities)-1] == len(args) {
		return "", false
	}
	var b strings.Builder
	k := 0
	for i, n := range names {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(n)
		if a := arities[i]; a > 0 {
			b.WriteByte('<')
			b.WriteString(strings.Join(args[k:k+a], ", "))
			b.WriteByte('>')
			k += a
		}
	}
	return b.String(), true
}

// NestedParts implements NestedNamer from the module's metadata.
func (n metaNamer) NestedParts(token uint32) ([]string, []int, bool) {
	var names []string
	var arities []int
	switch token & 0xff000000 {
	case 0x02000000:
		for td, i := token, 0; td != 0 && i < maxClassDepth; i++ {
			raw, err := n.md.TypeDefName(td)
			if err != nil {
				return nil, nil, false
			}
			name, a := splitArity(raw)
			names, arities = append(names, name), append(arities, a)
			td = n.md.EnclosingClass(td)
		}
	case 0x01000000:
		for tr, i := token, 0; i < maxClassDepth; i++ {
			raw, scope, err := n.md.TypeRefName(tr)
			if err != nil {
				return nil, nil, false
			}
			name, a := splitArity(raw)
			names, arities = append(names, name), append(arities, a)
			if scope&0xff000000 != 0x01000000 {
				break
			}
			tr = scope
		}
	default:
		return nil, nil, false
	}
	for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
		names[i], names[j] = names[j], names[i]
		arities[i], arities[j] = arities[j], arities[i]
	}
	return names, arities, true
}
