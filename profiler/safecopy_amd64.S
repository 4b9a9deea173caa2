// safecopy_amd64.S: a copy that survives reading unmapped memory (x86-64
// SysV). A leaf: the value reader, the ambient reader and the signal
// handler depend on it; it depends on nothing.

        .intel_syntax noprefix
        .text

// clr_safe_copy(dst, src, n): copies n bytes and returns 0, or returns -1
// if reading src faulted. The fault handler (signals.c) recognises a fault
// between clr_safe_copy and clr_safe_copy_fixup, where every instruction
// that touches memory reads src or writes dst and nothing is pushed, and
// resumes at clr_safe_copy_fixup, the way kernels copy from user memory:
// no setjmp, no syscall, a plain call when nothing faults.
//
// Most copies are one field: 8 or 4 bytes. Those are single moves, since
// `rep movsb` costs tens of cycles to start whatever its length (it was
// the value reader's largest cost on a traced service's threads); other
// lengths take it.
        .globl clr_safe_copy, clr_safe_copy_fixup
        .hidden clr_safe_copy, clr_safe_copy_fixup
        .type clr_safe_copy, @function
        .p2align 4
clr_safe_copy:
        cmp     rdx, 8
        jne     1f
        mov     rax, qword ptr [rsi]
        mov     qword ptr [rdi], rax
        xor     eax, eax
        ret
1:
        cmp     rdx, 4
        jne     2f
        mov     eax, dword ptr [rsi]
        mov     dword ptr [rdi], eax
        xor     eax, eax
        ret
2:
        cmp     rdx, 16
        jne     3f
        mov     rax, qword ptr [rsi]
        mov     rcx, qword ptr [rsi + 8]
        mov     qword ptr [rdi], rax
        mov     qword ptr [rdi + 8], rcx
        xor     eax, eax
        ret
3:
        mov     rcx, rdx
        rep movsb
        xor     eax, eax
        ret
clr_safe_copy_fixup:
        mov     eax, -1
        ret
        .size clr_safe_copy, .-clr_safe_copy

        .section .note.GNU-stack,"",@progbits
