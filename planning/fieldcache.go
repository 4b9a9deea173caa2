package planning

import (
	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/internal/memo"
)

// ModuleFields is what one module's metadata says of its fields, asked
// each time.
type ModuleFields interface {
	Fields(td uint32) ([]uint32, error) // a TypeDef's fields, static ones too
	Field(fd uint32) (FieldProps, error)
}

// FieldCache remembers what one module's metadata says of its fields:
// per type, the fields the profiler added to it (for every kind at once:
// asked per kind, a type with none cost three enumerations of its fields),
// and per field, its name, signature and attributes (read for the added
// fields' scan, then again for the class plans of the type and of every
// class derived from it). The fields are defined as the module loads,
// before any of its types is loaded and so before any of its methods
// compiles: the answers never change. Both maps are bounded by the
// module's metadata: one entry per TypeDef or FieldDef asked about. A
// failure is not remembered.
type FieldCache struct {
	md    ModuleFields
	names flows.AddedNames
	added memo.Map[uint32, flows.Added]
	props memo.Map[uint32, FieldProps]
}

// NewFieldCache caches md's answers; names are the added fields' names.
func NewFieldCache(md ModuleFields, names flows.AddedNames) *FieldCache {
	return &FieldCache{md: md, names: names}
}

// Fields lists a TypeDef's fields (not cached: each plan asks once).
func (c *FieldCache) Fields(td uint32) ([]uint32, error) { return c.md.Fields(td) }

// Field is what the metadata says of field fd.
func (c *FieldCache) Field(fd uint32) (FieldProps, error) {
	return c.props.Get(fd, func() (FieldProps, error) { return c.md.Field(fd) })
}

// Added returns the fields the profiler gave td, for each kind of type
// (flows.FindAdded).
func (c *FieldCache) Added(td uint32) (flows.Added, error) {
	return c.added.Get(td, func() (flows.Added, error) {
		all, err := c.md.Fields(td)
		if err != nil {
			return flows.Added{}, err
		}
		return flows.FindAdded(all, func(fd uint32) (string, error) {
			f, err := c.Field(fd)
			return f.Name, err
		}, c.names), nil
	})
}
