/* Stack switch for AArch64 / AAPCS64 (the C side and the contract are in coro.c / coro.h).
 *
 * A suspended execution is a 160-byte frame on its own stack, and its context holds only the
 * address of that frame:
 *
 *     sp+0    x19 x20   sp+16  x21 x22   sp+32  x23 x24   sp+48  x25 x26   sp+64  x27 x28
 *     sp+80   x29 x30 (frame pointer, return address into the suspended code)
 *     sp+96   d8 d9     sp+112 d10 d11   sp+128 d12 d13   sp+144 d14 d15
 *
 * These are all the registers AAPCS64 makes a call preserve (x19-x29, sp, the low 64 bits of
 * v8-v15; x30 is the way back). FPCR is left alone, like the signal mask: the rounding mode is
 * per thread, not per context. No system calls. PC-relative branches only, so PIE/shared is fine.
 *
 * With -mbranch-protection the functions get BTI landing pads and sign the saved return address
 * (each frame is signed with its own sp at entry and authenticated with that same sp when it is
 * resumed, so signing survives the stack change), and the object gets the matching GNU property.
 *
 * How it was checked (the development machine is x86-64): built with aarch64-linux-gnu-gcc 12 and
 * clang 14 (-Wall -Wextra; -O0/-O2, PIE and -static, with and without -mbranch-protection=standard
 * and =pac-ret+b-key+bti), and tests/engine/test_coro.c passed under qemu-aarch64 7.2 -cpu max,
 * also with -fsanitize=address,undefined. Pointer authentication is enforced there: a copy without
 * the signing instruction crashes. BTI could not be enforced on the whole test (Debian's cross
 * glibc has no BTI marking), so a freestanding BTI-marked program called every entry point
 * indirectly and ran clean (a copy missing a landing pad gets SIGILL). Frame offsets and CFI
 * were reviewed with objdump -d and readelf --debug-dump=frames-interp.
 */

#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define BTI_C hint 34               /* bti c */
#define FEATURE_BTI 1
#else
#define BTI_C
#define FEATURE_BTI 0
#endif

#if defined(__ARM_FEATURE_PAC_DEFAULT) && (__ARM_FEATURE_PAC_DEFAULT & 2)
#define SIGN_LR hint 27 ; .cfi_negate_ra_state     /* pacibsp (also a BTI landing pad) */
#define AUTH_LR hint 31 ; .cfi_negate_ra_state     /* autibsp */
#define CFI_LR_SIGNED .cfi_negate_ra_state
#define FEATURE_PAC 2
#elif defined(__ARM_FEATURE_PAC_DEFAULT) && (__ARM_FEATURE_PAC_DEFAULT & 1)
#define SIGN_LR hint 25 ; .cfi_negate_ra_state     /* paciasp (also a BTI landing pad) */
#define AUTH_LR hint 29 ; .cfi_negate_ra_state     /* autiasp */
#define CFI_LR_SIGNED .cfi_negate_ra_state
#define FEATURE_PAC 2
#else
#define SIGN_LR BTI_C
#define AUTH_LR
#define CFI_LR_SIGNED
#define FEATURE_PAC 0
#endif

    .text

/* Save the callee-saved state below sp; leaves sp pointing at the frame described above. */
.macro SAVE_STATE
    sub     sp, sp, #160
    .cfi_def_cfa_offset 160
    stp     x19, x20, [sp, #0]
    stp     x21, x22, [sp, #16]
    stp     x23, x24, [sp, #32]
    stp     x25, x26, [sp, #48]
    stp     x27, x28, [sp, #64]
    stp     x29, x30, [sp, #80]
    stp     d8, d9, [sp, #96]
    stp     d10, d11, [sp, #112]
    stp     d12, d13, [sp, #128]
    stp     d14, d15, [sp, #144]
    FRAME_CFI
.endm

/* Where SAVE_STATE put each register, relative to CFA = sp + 160. */
.macro FRAME_CFI
    .cfi_offset x19, -160
    .cfi_offset x20, -152
    .cfi_offset x21, -144
    .cfi_offset x22, -136
    .cfi_offset x23, -128
    .cfi_offset x24, -120
    .cfi_offset x25, -112
    .cfi_offset x26, -104
    .cfi_offset x27, -96
    .cfi_offset x28, -88
    .cfi_offset x29, -80
    .cfi_offset x30, -72
    .cfi_offset d8, -64
    .cfi_offset d9, -56
    .cfi_offset d10, -48
    .cfi_offset d11, -40
    .cfi_offset d12, -32
    .cfi_offset d13, -24
    .cfi_offset d14, -16
    .cfi_offset d15, -8
.endm

/* Load a frame saved by SAVE_STATE (sp points at it) and return into the code that saved it. */
.macro RESTORE_STATE_AND_RETURN
    ldp     x19, x20, [sp, #0]
    ldp     x21, x22, [sp, #16]
    ldp     x23, x24, [sp, #32]
    ldp     x25, x26, [sp, #48]
    ldp     x27, x28, [sp, #64]
    ldp     x29, x30, [sp, #80]
    ldp     d8, d9, [sp, #96]
    ldp     d10, d11, [sp, #112]
    ldp     d12, d13, [sp, #128]
    ldp     d14, d15, [sp, #144]
    add     sp, sp, #160
    .cfi_def_cfa_offset 0
    .cfi_restore x19
    .cfi_restore x20
    .cfi_restore x21
    .cfi_restore x22
    .cfi_restore x23
    .cfi_restore x24
    .cfi_restore x25
    .cfi_restore x26
    .cfi_restore x27
    .cfi_restore x28
    .cfi_restore x29
    .cfi_restore x30
    .cfi_restore d8
    .cfi_restore d9
    .cfi_restore d10
    .cfi_restore d11
    .cfi_restore d12
    .cfi_restore d13
    .cfi_restore d14
    .cfi_restore d15
    AUTH_LR
    ret
.endm

/* void isk_coro_swap_(void **save_sp, void *to_sp)
 * Save the caller's state, publish its frame in *save_sp, and resume the frame at to_sp. The
 * target frame has the same layout, so the CFI stays valid across the stack change. */
    .globl  isk_coro_swap_
    .hidden isk_coro_swap_
    .type   isk_coro_swap_, %function
    .p2align 4
isk_coro_swap_:
    .cfi_startproc
    SIGN_LR
    SAVE_STATE
    mov     x9, sp
    str     x9, [x0]
    mov     sp, x1
    RESTORE_STATE_AND_RETURN
    .cfi_endproc
    .size   isk_coro_swap_, . - isk_coro_swap_

/* _Noreturn void isk_coro_resume_(void *to_sp)
 * Resume the frame at to_sp; the calling execution is abandoned. */
    .globl  isk_coro_resume_
    .hidden isk_coro_resume_
    .type   isk_coro_resume_, %function
    .p2align 4
isk_coro_resume_:
    .cfi_startproc
    BTI_C
    mov     sp, x0
    .cfi_def_cfa_offset 160
    FRAME_CFI
    CFI_LR_SIGNED               /* the frame's saved x30 is signed (when signing is on) */
    RESTORE_STATE_AND_RETURN
    .cfi_endproc
    .size   isk_coro_resume_, . - isk_coro_resume_

/* void isk_coro_start_on_(void **save_sp, void *stack_top, void (*fn)(void *), void *arg)
 * Save the caller like isk_coro_swap_, then call fn(arg) with sp = stack_top (16-byte aligned,
 * as sp must always be). */
    .globl  isk_coro_start_on_
    .hidden isk_coro_start_on_
    .type   isk_coro_start_on_, %function
    .p2align 4
isk_coro_start_on_:
    .cfi_startproc
    SIGN_LR
    SAVE_STATE
    mov     x9, sp
    str     x9, [x0]
    mov     sp, x1
    .cfi_def_cfa_offset 0
    .cfi_undefined x30          /* nothing to unwind into on the new stack */
    mov     x0, x3
    b       isk_coro_trampoline
    .cfi_endproc
    .size   isk_coro_start_on_, . - isk_coro_start_on_

/* The bottom frame of every started stack: x2 = fn, x0 = arg. Its CFI marks the end of the call
 * chain, and x29 = x30 = 0 stops frame-pointer walkers. Entered by a direct branch only. */
    .type   isk_coro_trampoline, %function
    .p2align 4
isk_coro_trampoline:
    .cfi_startproc
    .cfi_undefined x30
    mov     x29, xzr
    mov     x30, xzr
    blr     x2
    /* fn must never return; report it instead of running off the top of the stack. */
    bl      isk_coro_fn_returned_
    brk     #1
    .cfi_endproc
    .size   isk_coro_trampoline, . - isk_coro_trampoline

#if FEATURE_BTI || FEATURE_PAC
/* GNU_PROPERTY_AARCH64_FEATURE_1_AND: without it, linking this object would switch BTI off for
 * the whole program. */
    .pushsection .note.gnu.property, "a"
    .balign 8
    .long   4                       /* name size ("GNU\0") */
    .long   16                      /* descriptor size */
    .long   5                       /* NT_GNU_PROPERTY_TYPE_0 */
    .asciz  "GNU"
    .long   0xc0000000              /* GNU_PROPERTY_AARCH64_FEATURE_1_AND */
    .long   4                       /* property data size */
    .long   FEATURE_BTI | FEATURE_PAC
    .long   0                       /* pad to 8 bytes */
    .popsection
#endif

    .section .note.GNU-stack, "", %progbits
