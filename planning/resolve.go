package planning

import (
	"fmt"
	"strings"
)

// Token kinds (the top byte of a metadata token).
const (
	tokTypeRef = 0x01000000
	tokTypeDef = 0x02000000
	tokKind    = 0xff000000
)

// resolveDef finds the module and TypeDef that a TypeDef or TypeRef token
// of module mid stands for.
func (pl *Planner) resolveDef(mid uint64, tok uint32) (uint64, uint32, error) {
	if tok&tokKind == tokTypeDef {
		return mid, tok, nil
	}
	if tok&tokKind != tokTypeRef {
		return 0, 0, fmt.Errorf("token %#x is not a TypeDef or TypeRef", tok)
	}
	key := [2]uint64{mid, uint64(tok)}
	if d, ok := pl.defRefs[key]; ok {
		return d[0], uint32(d[1]), nil
	}
	var chain []string
	for cur, i := tok, 0; i < 8; i++ {
		name, scope, err := pl.src.TypeRefName(mid, cur)
		if err != nil {
			return 0, 0, err
		}
		chain = append([]string{name}, chain...)
		if scope&tokKind != tokTypeRef {
			break
		}
		cur = scope
	}
	m, td, ok := pl.FindDef(chain)
	if !ok {
		return 0, 0, fmt.Errorf("type %s not found in any loaded module", strings.Join(chain, "+"))
	}
	pl.defRefs[key] = [2]uint64{m, uint64(td)}
	return m, td, nil
}

// resolveToken finds the class of a TypeDef or TypeRef used in module mid.
// A TypeRef names a type by name only (metadata does not link it to a
// module): resolveDef looks the name up in the loaded modules.
func (pl *Planner) resolveToken(mid uint64, tok uint32) (uint64, error) {
	key := [2]uint64{mid, uint64(tok)}
	if cid, ok := pl.tokenClasses[key]; ok {
		return cid, nil
	}
	m, td, err := pl.resolveDef(mid, tok)
	if err != nil {
		return 0, err
	}
	cid, err := pl.classOfDef(m, td)
	if err != nil {
		return 0, err
	}
	pl.tokenClasses[key] = cid
	return cid, nil
}

// FindDef looks a type up by name (outermost first for nested types) in
// the loaded modules, and returns the first module defining it and its
// TypeDef.
func (pl *Planner) FindDef(chain []string) (uint64, uint32, bool) {
	key := strings.Join(chain, "\x00")
	pl.defsMu.Lock()
	d, ok := pl.defs[key]
	pl.defsMu.Unlock()
	// Modules are only ever added at the end of the list: the first one
	// that defines the name stays the first while it is loaded.
	if ok && pl.src.ModuleLoaded(d[0]) {
		return d[0], uint32(d[1]), true
	}
	m, td, ok := pl.scanDef(chain)
	if ok {
		pl.defsMu.Lock()
		pl.defs[key] = [2]uint64{m, uint64(td)}
		pl.defsMu.Unlock()
	}
	return m, td, ok
}

// scanDef is FindDef, uncached.
func (pl *Planner) scanDef(chain []string) (uint64, uint32, bool) {
	for _, m := range pl.src.Modules() {
		var td uint32
		ok := true
		for _, name := range chain {
			if td, ok = pl.src.FindTypeDef(m, name, td); !ok {
				break
			}
		}
		if ok {
			return m, td, true
		}
	}
	return 0, 0, false
}

// FindType finds the class of a non-generic type by name (outermost first
// for nested types). It may load the type.
func (pl *Planner) FindType(chain []string) (uint64, error) {
	return pl.findType(chain, pl.src.ClassOf)
}

// findClass is FindType with mu held: the class of each TypeDef is asked
// once.
func (pl *Planner) findClass(chain []string) (uint64, error) {
	return pl.findType(chain, pl.classOfDef)
}

func (pl *Planner) findType(chain []string, classOf func(mid uint64, td uint32) (uint64, error)) (uint64, error) {
	m, td, ok := pl.FindDef(chain)
	if !ok {
		return 0, fmt.Errorf("type %s not found in any loaded module", strings.Join(chain, "+"))
	}
	cid, err := classOf(m, td)
	if err != nil {
		return 0, fmt.Errorf("type %s: %w", strings.Join(chain, "+"), err)
	}
	return cid, nil
}
