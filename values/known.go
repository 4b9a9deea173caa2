package values

// known is what a Renderer worked out of one class, kept while the
// Classes' generation holds: rendering asks about the class of every
// object it meets, and the answers are the same for every object of it.
type known struct {
	info ClassInfo
	// key and val are entryFieldsOf(info), once entry is set.
	key, val int16
	entry    bool
	// typed and collection are the TypeRenderer's answers (0: not asked
	// yet, 1: yes, -1: no).
	typed, collection int8
}

// maxKnown bounds Renderer.known; a class past it is asked about at each
// object.
const maxKnown = 1 << 14

// RenderChooser is what a TypeRenderer may also say: whether it renders
// any object of class ci at all. A Renderer asks it once per class and
// then asks Render only about objects of the classes it chose.
type RenderChooser interface {
	Renders(ci ClassInfo) bool
}

// known returns what r knows of class id, or nil when Classes does not
// know it or is not Versioned (then nothing is kept).
func (r *Renderer) known(id uint64) *known {
	v, ok := r.Classes.(Versioned)
	if !ok {
		return nil
	}
	if g := v.Generation(); g != r.knownGen || r.knownClasses == nil {
		r.knownGen = g
		r.knownClasses = make(map[uint64]*known)
	}
	if k := r.knownClasses[id]; k != nil {
		return k
	}
	ci, ok := r.Classes.Class(id)
	if !ok {
		return nil
	}
	k := &known{info: ci}
	if len(r.knownClasses) < maxKnown {
		r.knownClasses[id] = k
	}
	return k
}

// answer turns a yes or no into a known answer.
func answer(yes bool) int8 {
	if yes {
		return 1
	}
	return -1
}
