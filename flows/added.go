package flows

import "strings"

// AddedPrefix begins the name of every field the profiler adds
// (profiler/async.c), and no field a compiler makes.
const AddedPrefix = "<clrotel>"

// AddedNames are the names of the fields the profiler adds to each kind of
// type (profiler/async.c, which defines them).
type AddedNames interface {
	// Count is how many fields a type of kind is given.
	Count(kind TypeKind) int
	// Index is the place of the field named name among those of kind, or
	// -1.
	Index(name string, kind TypeKind) int
}

// FindAdded returns, for each kind of type, the tokens of the fields the
// profiler gave a type as a type of that kind, in their order, from the
// type's fields (fields, named by name): one pass answers every kind. A
// kind whose fields are not all there has none; a field whose name
// cannot be read is not one of them.
func FindAdded(fields []uint32, name func(fd uint32) (string, error), names AddedNames) Added {
	var added Added
	var found [typeKinds]int
	for kind := range added {
		added[kind] = make([]uint32, names.Count(TypeKind(kind)))
	}
	for _, fd := range fields {
		n, err := name(fd)
		if err != nil || !strings.HasPrefix(n, AddedPrefix) {
			continue
		}
		for kind := range added {
			if i := names.Index(n, TypeKind(kind)); i >= 0 {
				added[kind][i] = fd
				found[kind]++
			}
		}
	}
	for kind := range added {
		if found[kind] != len(added[kind]) {
			added[kind] = nil
		}
	}
	return added
}
