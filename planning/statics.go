package planning

import (
	"strings"

	"github.com/clrotel/clrotel/naming"
	"github.com/clrotel/clrotel/values"
)

// staticsPlan adds the configured static fields of m's type to its plan.
func (pl *Planner) staticsPlan(m *naming.Method, fp *Function) {
	typeKey := strings.TrimSuffix(m.SelectName, "."+m.Name)
	names := pl.statics[typeKey]
	if len(names) == 0 {
		return
	}
	if m.ClassID == 0 {
		pl.log.Warnf("statics of %s: not read in shared generic code", typeKey)
		return
	}
	toks, err := pl.src.Fields(m.ModuleID, m.OwnerToken)
	if err != nil {
		return
	}
	byName := map[string]uint32{}
	for _, t := range toks {
		if f, err := pl.src.Field(m.ModuleID, t); err == nil && f.Attrs&fieldStatic != 0 {
			byName[f.Name] = t
		}
	}
	for _, name := range names {
		tok, ok := byName[name]
		if !ok {
			pl.log.Warnf("statics: %s has no static field %s", typeKey, name)
			continue
		}
		if pl.src.HasAttribute(m.ModuleID, tok, "System.ContextStaticAttribute") {
			pl.log.Warnf("statics: %s.%s is [ContextStatic]: context statics do not exist on CoreCLR; not read", typeKey, name)
			continue
		}
		f, err := pl.src.Field(m.ModuleID, tok)
		if err != nil {
			continue
		}
		ft, err := naming.ParseFieldSig(f.Sig)
		if err != nil {
			continue
		}
		sp := Static{ClassID: m.ClassID, Field: tok, Where: StaticAppDomain}
		switch {
		case f.Attrs&fieldHasRVA != 0:
			sp.Where = StaticRVA
		case pl.src.HasAttribute(m.ModuleID, tok, "System.ThreadStaticAttribute"):
			sp.Where = StaticThread
		}
		s := pl.typeSlot(ft, m.ModuleID, m.TypeArgIDs, nil, 0)
		sp.Value = Value{Kind: s.kind, Class: s.cls, Redact: pl.redact.Sensitive(name)}
		setTypeArg(&sp.Value, s)
		fp.Statics = append(fp.Statics, sp)
		fp.Enter = append(fp.Enter, values.Slot{Key: "dotnet.static." + name, Enum: s.enum})
	}
}
