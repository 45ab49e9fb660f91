/* Stack switch for System V x86-64 (the C side and the contract are in coro.c / coro.h).
 *
 * A suspended execution is a frame on its own stack, and its context holds only the address of
 * that frame:
 *
 *     sp+0   MXCSR (4 bytes), x87 control word (2 bytes), 2 bytes unused
 *     sp+8   r15, r14, r13, r12, rbx, rbp
 *     sp+56  return address into the suspended code
 *
 * These are all the registers a call must preserve: the ABI makes the MXCSR control bits and the
 * x87 control word callee-saved too; everything else, including the MXCSR status flags, is
 * caller-saved, so the compiler has already spilled what it needs around the call. Loading MXCSR
 * and the x87 control word is slow (partly serialising), and contexts almost always share the
 * same modes, so they are only loaded when the resumed context's differ. The signal mask is not
 * touched: no system calls.
 *
 * Only RIP-relative/PLT references, so the object works in PIE and shared libraries.
 * Deliberately no CET property note: a switch returns on a different stack than it was called on,
 * which a shadow stack would reject, so programs linking this must not enable one. */

    .text

/* Push the callee-saved state, leaving rsp pointing at the frame described above, and keep the
 * current MXCSR in eax and x87 control word in edx for RESTORE_STATE_AND_RETURN. */
.macro SAVE_STATE
    pushq   %rbp
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %rbp, 0
    pushq   %rbx
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %rbx, 0
    pushq   %r12
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r12, 0
    pushq   %r13
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r13, 0
    pushq   %r14
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r14, 0
    pushq   %r15
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r15, 0
    subq    $8, %rsp
    .cfi_adjust_cfa_offset 8
    stmxcsr (%rsp)
    fnstcw  4(%rsp)
    movl    (%rsp), %eax        /* same widths as the stores, so the loads are forwarded */
    movzwl  4(%rsp), %edx
.endm

/* Pop a frame pushed by SAVE_STATE (rsp points at it) and return into the code that saved it.
 * Expects eax = current MXCSR, edx = current x87 control word. The CFI before it must say
 * CFA = rsp + 64 with the registers at their SAVE_STATE places. */
.macro RESTORE_STATE_AND_RETURN
    movl    (%rsp), %ecx
    xorl    %eax, %ecx
    testl   $~0x3f, %ecx        /* MXCSR control bits differ? (bits 0-5 are status flags) */
    jnz     1f
    cmpw    4(%rsp), %dx
    jne     2f
3:
    .cfi_remember_state
    addq    $8, %rsp
    .cfi_adjust_cfa_offset -8
    popq    %r15
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r15
    popq    %r14
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r14
    popq    %r13
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r13
    popq    %r12
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r12
    popq    %rbx
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbx
    popq    %rbp
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbp
    ret
    .cfi_restore_state
1:  /* Take the saved control bits, keep the current status flags (they are not preserved). */
    andl    $~0x3f, %ecx
    xorl    %ecx, %eax
    movl    %eax, (%rsp)
    ldmxcsr (%rsp)
    cmpw    4(%rsp), %dx
    je      3b
2:
    fldcw   4(%rsp)
    jmp     3b
.endm

/* void isk_coro_swap_(void **save_sp, void *to_sp)
 * Save the caller's state, publish its frame in *save_sp, and resume the frame at to_sp. The
 * target frame has the same layout, so the CFI stays valid across the stack change (an unwinder
 * stopped after it simply sees the resumed execution). */
    .globl  isk_coro_swap_
    .hidden isk_coro_swap_
    .type   isk_coro_swap_, @function
    .p2align 4
isk_coro_swap_:
    .cfi_startproc
    SAVE_STATE
    movq    %rsp, (%rdi)
    movq    %rsi, %rsp
    RESTORE_STATE_AND_RETURN
    .cfi_endproc
    .size   isk_coro_swap_, . - isk_coro_swap_

/* _Noreturn void isk_coro_resume_(void *to_sp)
 * Resume the frame at to_sp; the calling execution is abandoned. */
    .globl  isk_coro_resume_
    .hidden isk_coro_resume_
    .type   isk_coro_resume_, @function
    .p2align 4
isk_coro_resume_:
    .cfi_startproc
    stmxcsr -8(%rsp)            /* the red zone: this is a leaf */
    fnstcw  -4(%rsp)
    movl    -8(%rsp), %eax
    movzwl  -4(%rsp), %edx
    movq    %rdi, %rsp
    .cfi_def_cfa_offset 64
    .cfi_offset %rbp, -16
    .cfi_offset %rbx, -24
    .cfi_offset %r12, -32
    .cfi_offset %r13, -40
    .cfi_offset %r14, -48
    .cfi_offset %r15, -56
    RESTORE_STATE_AND_RETURN
    .cfi_endproc
    .size   isk_coro_resume_, . - isk_coro_resume_

/* void isk_coro_start_on_(void **save_sp, void *stack_top, void (*fn)(void *), void *arg)
 * Save the caller like isk_coro_swap_, then call fn(arg) with rsp = stack_top (16-byte aligned,
 * so fn is entered with rsp = 8 mod 16 as after any ABI-conforming call). */
    .globl  isk_coro_start_on_
    .hidden isk_coro_start_on_
    .type   isk_coro_start_on_, @function
    .p2align 4
isk_coro_start_on_:
    .cfi_startproc
    movq    %rdx, %r8           /* SAVE_STATE uses edx */
    SAVE_STATE
    movq    %rsp, (%rdi)
    movq    %rsi, %rsp
    .cfi_undefined %rip         /* nothing to unwind into on the new stack */
    movq    %rcx, %rdi
    jmp     isk_coro_trampoline
    .cfi_endproc
    .size   isk_coro_start_on_, . - isk_coro_start_on_

/* The bottom frame of every started stack: r8 = fn, rdi = arg. Its CFI marks the end of the
 * call chain for debuggers and profilers, and rbp = 0 stops frame-pointer walkers (ASan's). */
    .type   isk_coro_trampoline, @function
    .p2align 4
isk_coro_trampoline:
    .cfi_startproc
    .cfi_undefined %rip
    xorl    %ebp, %ebp
    callq   *%r8
    /* fn must never return; report it instead of running off the top of the stack. */
    callq   isk_coro_fn_returned_@PLT
    ud2
    .cfi_endproc
    .size   isk_coro_trampoline, . - isk_coro_trampoline

    .section .note.GNU-stack, "", %progbits
