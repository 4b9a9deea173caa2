package flows

import "encoding/binary"

// MaxTailCallees is how many of a method's tail callees the hooks know
// (capture.h TAIL_CALLEES): a method calling more in tail position has
// the rest ended where it tail-calls them.
const MaxTailCallees = 4

const (
	opJmp      = 0x27
	opCall     = 0x28
	opRet      = 0x2a
	opCallvirt = 0x6f
	opCalli    = 0x29
	opNop      = 0x00
)

// TailCallees reads a method body (ECMA-335 II.25.4) and returns the
// method tokens it may call in tail position: a `call` or `callvirt`
// whose next instruction (past `nop`s) is `ret`, or a `jmp`, each once,
// in order. The JIT may make such a call a tail call, whose callee's frame
// replaces the caller's: the hooks then keep the caller's frame until that
// callee returns (hooks.c). The tokens are MethodDefs, MemberRefs and
// MethodSpecs, for CallTarget to name. It returns none when any such call
// names no method (`calli`), or when there are more than MaxTailCallees:
// the hooks could not tell that callee's Enter, and would wait for
// whatever the thread does next.
func TailCallees(body []byte) ([]uint32, error) {
	var out []uint32
	unknown := false
	add := func(tok uint32) {
		switch tok >> 24 {
		case tokMethodDef, tokMemberRef, tokMethodSpec:
		default:
			unknown = true
			return
		}
		for _, t := range out {
			if t == tok {
				return
			}
		}
		out = append(out, tok)
	}
	var pending uint32 // the token of the last call, while only nops follow it
	err := eachInstruction(body, func(op uint16, operand []byte) {
		switch op {
		case opCall, opCallvirt:
			pending = binary.LittleEndian.Uint32(operand)
		case opCalli:
			pending = 1 // a call of no method token
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
	if unknown || len(out) > MaxTailCallees {
		return nil, nil
	}
	return out, nil
}
