package flows

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// An iterator method that names its enumerator in no attribute (mcs emits
// no IteratorStateMachineAttribute) is found from its body: it constructs
// the enumerator, a `newobj` of a constructor of that type. NewObjTokens
// reads a method body (ECMA-335 II.25.4: its header, then its IL) and
// returns the constructor tokens of its `newobj` instructions, in order.
func NewObjTokens(body []byte) ([]uint32, error) {
	var out []uint32
	err := eachInstruction(body, func(op uint16, operand []byte) {
		if op == opNewobj {
			out = append(out, binary.LittleEndian.Uint32(operand))
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eachInstruction calls f with each instruction of a method body's IL, in
// order: its opcode (0xfeXX for the two-byte ones) and operand.
func eachInstruction(body []byte, f func(op uint16, operand []byte)) error {
	code, err := ilCode(body)
	if err != nil {
		return err
	}
	for pc := 0; pc < len(code); {
		op := uint16(code[pc])
		pc++
		if op == 0xfe {
			if pc >= len(code) {
				return errTruncated
			}
			op = 0xfe00 | uint16(code[pc])
			pc++
		}
		n, err := operandSize(op, code[pc:])
		if err != nil {
			return fmt.Errorf("IL offset %d: %w", pc, err)
		}
		if pc+n > len(code) {
			return errTruncated
		}
		f(op, code[pc:pc+n])
		pc += n
	}
	return nil
}

const opNewobj = 0x73

var errTruncated = errors.New("IL truncated")

// ilCode returns a method body's IL, past its tiny or fat header.
func ilCode(body []byte) ([]byte, error) {
	if len(body) == 0 {
		return nil, errors.New("empty method body")
	}
	switch body[0] & 3 {
	case 2: // tiny: the size in the upper six bits
		n := int(body[0] >> 2)
		if 1+n > len(body) {
			return nil, errTruncated
		}
		return body[1 : 1+n], nil
	case 3: // fat: flags and header size (in 4-byte words), max stack, code size
		if len(body) < 12 {
			return nil, errTruncated
		}
		h := int(binary.LittleEndian.Uint16(body)>>12) * 4
		n := int(binary.LittleEndian.Uint32(body[4:]))
		if h < 12 || n < 0 || h+n > len(body) || h+n < h {
			return nil, errTruncated
		}
		return body[h : h+n], nil
	}
	return nil, fmt.Errorf("method header format %d", body[0]&3)
}

// operandSize is the size of an opcode's operand (ECMA-335 III), rest
// being the bytes after the opcode (a switch's operand has its count).
func operandSize(op uint16, rest []byte) (int, error) {
	switch {
	case op == 0x45: // switch: a count, then that many targets
		if len(rest) < 4 {
			return 0, errTruncated
		}
		n := binary.LittleEndian.Uint32(rest)
		if n > uint32(len(rest))/4 {
			return 0, errTruncated
		}
		return 4 + 4*int(n), nil
	case op >= 0xfe00:
		switch op & 0xff {
		case 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x0f, 0x11, 0x13, 0x14, 0x17, 0x18, 0x1a, 0x1d, 0x1e:
			return 0, nil
		case 0x12, 0x19: // unaligned., no.
			return 1, nil
		case 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e: // ldarg ... stloc
			return 2, nil
		case 0x06, 0x07, 0x15, 0x16, 0x1c: // ldftn, ldvirtftn, initobj, constrained., sizeof
			return 4, nil
		}
	case op <= 0x0d, op >= 0x14 && op <= 0x1e, op == 0x25, op == 0x26, op == 0x2a,
		op >= 0x46 && op <= 0x6e, op == 0x76, op == 0x7a, op >= 0x82 && op <= 0x8b, op == 0x8e, op >= 0x90 && op <= 0xa2,
		op >= 0xb3 && op <= 0xba, op == 0xc3, op >= 0xd1 && op <= 0xdc, op >= 0xdf && op <= 0xe0:
		return 0, nil
	case op >= 0x0e && op <= 0x13, op == 0x1f, op >= 0x2b && op <= 0x37, op == 0xde:
		return 1, nil
	case op == 0x20, op == 0x22, op >= 0x27 && op <= 0x29, op >= 0x38 && op <= 0x44,
		op >= 0x6f && op <= 0x75, op == 0x79, op >= 0x7b && op <= 0x81, op == 0x8c, op == 0x8d,
		op == 0x8f, op >= 0xa3 && op <= 0xa5, op == 0xc2, op == 0xc6, op == 0xd0, op == 0xdd:
		return 4, nil
	case op == 0x21, op == 0x23:
		return 8, nil
	}
	return 0, fmt.Errorf("unknown opcode %#x", op)
}
