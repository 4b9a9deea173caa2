package main

import (
	"github.com/clrotel/clrotel/flows"
	"github.com/clrotel/clrotel/internal/memo"
)

// fieldCache remembers what one module's metadata says of its fields:
// per type, the fields async.c added to it (for every kind at once: asked
// per kind, a type with none cost three enumerations of its fields), and
// per field, its name, signature and attributes (read for the async
// fields' scan, then again for the class plans of the type and of every
// class derived from it). The fields are defined as the module loads,
// before any of its types is loaded and so before any of its methods
// compiles: the answers never change. Both maps are bounded by the
// module's metadata: one entry per TypeDef or FieldDef asked about.
type fieldCache struct {
	added memo.Map[uint32, addedByKind]
	props memo.Map[uint32, fieldInfo]
}

// addedByKind is scanAdded's answer: per kind of type (ASYNC_KIND_*), the
// fields async.c added, or nil.
type addedByKind = flows.Added

// fieldInfo is what GetFieldProps says of a field.
type fieldInfo struct {
	name  string
	sig   []byte
	attrs uint32
}

// addedAll is m.scanAdded(td), cached.
func (m metadata) addedAll(td uint32) (addedByKind, error) {
	return m.fields.addedAll(td, func() (addedByKind, error) { return m.scanAdded(td) })
}

// addedFields returns the tokens of the fields async.c gave td as a type
// of kind (async.h ASYNC_KIND_*), in order, or nil.
func (m metadata) addedFields(td uint32, kind int) ([]uint32, error) {
	all, err := m.addedAll(td)
	if err != nil {
		return nil, err
	}
	return all[kind], nil
}

// addedAll returns the added fields of td for every kind, from the cache
// or, failing that, from ask. A failure is not remembered.
func (c *fieldCache) addedAll(td uint32, ask func() (addedByKind, error)) (addedByKind, error) {
	if c == nil {
		return ask()
	}
	return c.added.Get(td, ask)
}

// fieldProps is fieldProps(m.imp, fd), cached.
func (m metadata) fieldProps(fd uint32) (name string, sig []byte, attrs uint32, err error) {
	f, err := m.fields.fieldProps(fd, func() (fieldInfo, error) {
		name, sig, attrs, err := fieldProps(m.imp, fd)
		return fieldInfo{name, sig, attrs}, err
	})
	return f.name, f.sig, f.attrs, err
}

// fieldProps returns what is known of field fd, from the cache or,
// failing that, from ask. A failure is not remembered.
func (c *fieldCache) fieldProps(fd uint32, ask func() (fieldInfo, error)) (fieldInfo, error) {
	if c == nil {
		return ask()
	}
	return c.props.Get(fd, ask)
}
