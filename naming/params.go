package naming

// ParamRows reads a method's Param rows, toks (EnumParams), each through
// row; a row that cannot be read is left out.
func ParamRows(toks []uint32, row func(pd uint32) (ParamRow, error)) []ParamRow {
	rows := make([]ParamRow, 0, len(toks))
	for _, pd := range toks {
		if r, err := row(pd); err == nil {
			rows = append(rows, r)
		}
	}
	return rows
}

// GenericParamNames names the generic parameters toks of a TypeDef or a
// MethodDef (EnumGenericParams) by their numbers, read through param; one
// that cannot be read, or whose number is out of range, stays "".
func GenericParamNames(toks []uint32, param func(gp uint32) (seq uint32, name string, err error)) []string {
	names := make([]string, len(toks))
	for _, gp := range toks {
		seq, name, err := param(gp)
		if err != nil || int(seq) >= len(names) {
			continue
		}
		names[seq] = name
	}
	return names
}
