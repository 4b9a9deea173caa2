// safecopy_amd64.S: a copy that survives reading unmapped memory (x86-64
// SysV). A leaf: the value reader, the ambient reader and the signal
// handler depend on it; it depends on nothing.

        .intel_syntax noprefix
        .text

// clr_safe_copy(dst, src, n): copies n bytes and returns 0, or returns -1
// if reading src faulted. The fault handler (signals.c) recognises a fault
// at clr_safe_copy_load and resumes at clr_safe_copy_fixup, the way kernels
// copy from user memory: no setjmp, no syscall, a plain call when nothing
// faults.
        .globl clr_safe_copy, clr_safe_copy_load, clr_safe_copy_fixup
        .hidden clr_safe_copy, clr_safe_copy_load, clr_safe_copy_fixup
        .type clr_safe_copy, @function
        .p2align 4
clr_safe_copy:
        mov     rcx, rdx
clr_safe_copy_load:
        rep movsb
        xor     eax, eax
        ret
clr_safe_copy_fixup:
        mov     eax, -1
        ret
        .size clr_safe_copy, .-clr_safe_copy

        .section .note.GNU-stack,"",@progbits
