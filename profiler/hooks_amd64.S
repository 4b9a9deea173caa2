// hooks_amd64.S: Enter/Leave/Tailcall trampolines (x86-64 SysV).
//
// The runtime calls these from its slow-path ELT stub through plain C++
// (ProfileEnter/ProfileLeave), with rdi = client ID, rsi = COR_PRF_ELT_INFO.
// Before .NET 5 the stub saves xmm0-xmm7 into its platform data but restores
// only xmm0 and xmm1 after the hook, so any hook that touches xmm2-xmm7 (gcc
// uses them for memcpy and struct copies) corrupts the traced method's float
// arguments. Each trampoline therefore saves xmm0-xmm7 around the C body.
// The stack is 16-byte aligned at the call into C: on entry rsp = 8 mod 16;
// 8 * 16 bytes of xmm plus 8 bytes of padding restores the alignment.

        .intel_syntax noprefix
        .text

.macro TRAMPOLINE name, body
        .globl \name
        .hidden \name
        .type \name, @function
        .p2align 4
\name:
        .cfi_startproc
        sub     rsp, 136
        .cfi_adjust_cfa_offset 136
        movdqu  [rsp + 0],   xmm0
        movdqu  [rsp + 16],  xmm1
        movdqu  [rsp + 32],  xmm2
        movdqu  [rsp + 48],  xmm3
        movdqu  [rsp + 64],  xmm4
        movdqu  [rsp + 80],  xmm5
        movdqu  [rsp + 96],  xmm6
        movdqu  [rsp + 112], xmm7
        call    \body
        movdqu  xmm0, [rsp + 0]
        movdqu  xmm1, [rsp + 16]
        movdqu  xmm2, [rsp + 32]
        movdqu  xmm3, [rsp + 48]
        movdqu  xmm4, [rsp + 64]
        movdqu  xmm5, [rsp + 80]
        movdqu  xmm6, [rsp + 96]
        movdqu  xmm7, [rsp + 112]
        add     rsp, 136
        .cfi_adjust_cfa_offset -136
        ret
        .cfi_endproc
        .size \name, .-\name
.endm

        TRAMPOLINE clr_enter_trampoline, clr_on_enter
        TRAMPOLINE clr_leave_trampoline, clr_on_leave
        TRAMPOLINE clr_tailcall_trampoline, clr_on_tailcall

        .section .note.GNU-stack,"",@progbits
