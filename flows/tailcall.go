package flows

import "encoding/binary"

// MaxTailCallees is how many of a method's tail callees the hooks know
// (capture.h FN_TAIL_KEYS): a method calling more in tail position has
// the rest ended where it tail-calls them.
const MaxTailCallees = 4

const (
	opJmp      = 0x27
	opCall     = 0x28
	opRet      = 0x2a
	opCallvirt = 0x6f
	opNop      = 0x00
)

// TailCallees reads a method body (ECMA-335 II.25.4) and returns the
// methods of its own module it calls in tail position: a `call` or
// `callvirt` of a MethodDef whose next instruction (past `nop`s) is `ret`,
// or a `jmp`; at most MaxTailCallees of them, each once, in order. The
// JIT may make such a call a tail call, whose callee's frame replaces the
// caller's: the hooks then keep the caller's frame until that callee
// returns (hooks.c). A call through a MemberRef or a MethodSpec (another
// module, a generic instantiation) is not resolved here.
func TailCallees(body []byte) ([]uint32, error) {
	var out []uint32
	add := func(tok uint32) {
		if tok>>24 != 0x06 || len(out) == MaxTailCallees {
			return
		}
		for _, t := range out {
			if t == tok {
				return
			}
		}
		out = append(out, tok)
	}
	var pending uint32 // the MethodDef of the last call, while only nops follow it
	err := eachInstruction(body, func(op uint16, operand []byte) {
		switch op {
		case opCall, opCallvirt:
			pending = binary.LittleEndian.Uint32(operand)
		case opJmp:
			add(binary.LittleEndian.Uint32(operand))
			pending = 0
		case opRet:
			if pending != 0 {
				add(pending)
			}
			pending = 0
		case opNop, 0xfe14: // nop; tail. (a prefix of the call after it)
		default:
			pending = 0
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
