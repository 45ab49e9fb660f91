// The DPU runtime's library, in DPU assembly, with the ABI of the seed (elf-abi.md 7):
// arguments in r0..r7 (64-bit ones in d0..d6), result in r0 (d0 for 64 bits: r0 = bits 63:32),
// r0..r13 caller-saved, r14..r21 callee-saved, r22 the stack pointer (growing upward), r23 the
// return address (call r23, f ... jump r23). A non-leaf function saves r22 and r23 together:
//     sd r22, FRAME - 8, d22      add r22, r22, FRAME     ...     ld d22, r22, -8      jump r23
//
//   barrier_wait(barrier)           mutex_lock(bit), mutex_unlock(bit)
//   mram_read(mram, wram, bytes)    mram_write(wram, mram, bytes)
//   __mulsi3, __udivmodsi4          32-bit multiply and divide (mul_step, div_step)
//   __umulsidi3, __muldi3           32 x 32 -> 64 and 64 x 64 -> 64 multiplies
//   __udivmoddi4                    64-bit divide and remainder
// dpu.inc has the macros that declare barriers and mutexes.

    .text

// ---- barrier_wait(r0 = barrier) -----------------------------------------------------------
// A barrier is 4 bytes: [0] the last sleeper (0xff: none), [1] tasklets still expected,
// [2] the initial count, [3] the atomic bit of its lock. The sleepers form a circular list in
// __sys_wq_table (the next sleeper of each thread); the last to arrive resumes them all.
barrier_wait:
    .globl barrier_wait
    .type barrier_wait, @function
    lbu r1, r0, 3                       // r1 = the lock bit
    acquire r1, 0, nz, .                // lock (spin until the bit was clear)
    lbu r2, r0, 1                       // r2 = tasklets still expected
    jneq r2, 1, .Lbw_sleep
    lbu r3, r0, 0                       // the last to arrive: r3 = last sleeper
    jeq r3, 0xff, .Lbw_reset
    move r4, r3
.Lbw_wake:
    lbu r4, r4, __sys_wq_table          // the next sleeper round the circle (the first first)
    resume r4, 0, nz, .                 // wait until it has really stopped, then resume it
    jneq r4, r3, .Lbw_wake
.Lbw_reset:
    move r5, 0xff
    sb r0, 0, r5                        // nobody sleeps
    lbu r5, r0, 2
    sb r0, 1, r5                        // expect everybody again
    release r1, 0, nz, . + 1
    jump r23
.Lbw_sleep:
    lbu r3, r0, 0                       // r3 = last sleeper
    move r4, id                         // alone: the circle is this thread
    jeq r3, 0xff, .Lbw_first
    lbu r4, r3, __sys_wq_table          // r4 = the first sleeper
    sb_id r3, __sys_wq_table            // last -> this thread
.Lbw_first:
    sb id, __sys_wq_table, r4           // this thread -> first
    sb_id r0, 0                         // this thread is the last sleeper
    add r2, r2, -1
    sb r0, 1, r2
    release r1, 0, nz, . + 1
    stop                                // until the last to arrive resumes us
    jump r23

// ---- mutexes: r0 = the atomic bit (a byte of .atomic; see MUTEX_INIT) ----------------------
mutex_lock:
    .globl mutex_lock
    .type mutex_lock, @function
    acquire r0, 0, nz, .
    jump r23

mutex_unlock:
    .globl mutex_unlock
    .type mutex_unlock, @function
    release r0, 0, nz, . + 1
    jump r23

// ---- mram_read(r0 = MRAM address, r1 = WRAM address, r2 = bytes) --------------------------
// mram_write(r0 = WRAM address, r1 = MRAM address, r2 = bytes). Addresses 8-aligned, the size
// a multiple of 8; any size, in transfers of at most 2048 bytes (the size goes in bits 31:24
// of the WRAM address register as bytes / 8 - 1).
mram_read:
    .globl mram_read
    .type mram_read, @function
    move r3, 2048
.Lmr_loop:
    jleu r2, r3, .Lmr_last
    or r4, r1, 0xff000000               // 2048 bytes
    ldma r4, r0, 0
    add r0, r0, r3
    add r1, r1, r3
    sub r2, r2, r3
    jump .Lmr_loop
.Lmr_last:
    jz r2, .Lmr_done
    lsr r4, r2, 3
    add r4, r4, -1
    lsl_add r4, r1, r4, 24              // r4 = r1 + ((bytes / 8 - 1) << 24)
    ldma r4, r0, 0
.Lmr_done:
    jump r23

mram_write:
    .globl mram_write
    .type mram_write, @function
    move r3, 2048
.Lmw_loop:
    jleu r2, r3, .Lmw_last
    or r4, r0, 0xff000000
    sdma r4, r1, 0
    add r0, r0, r3
    add r1, r1, r3
    sub r2, r2, r3
    jump .Lmw_loop
.Lmw_last:
    jz r2, .Lmw_done
    lsr r4, r2, 3
    add r4, r4, -1
    lsl_add r4, r0, r4, 24
    sdma r4, r1, 0
.Lmw_done:
    jump r23

// ---- __mulsi3(r0, r1) -> r0 = r0 * r1 (32 bits) ----------------------------------------------
// mul_step on the pair d0: r0 holds the multiplier, shifted right one bit per step; r1
// accumulates r2 << k when bit k was set. Leaves as soon as the multiplier is exhausted.
__mulsi3:
    .globl __mulsi3
    .type __mulsi3, @function
    move r2, r1
    move r1, 0
    .irp k, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    mul_step d0, r2, d0, \k, z, .Lmul_done
    .endr
.Lmul_done:
    move r0, r1
    jump r23

// ---- __udivmodsi4(r0 = dividend, r1 = divisor) -> r0 = quotient, r1 = remainder -----------
// div_step on the pair d0 (r0 = quotient bits, r1 = the partial remainder), from bit
// k = clz(divisor) - clz(dividend) down to 0: the chain below is entered at its step k. A zero
// divisor is the runtime's fault 2.
__udivmodsi4:
    .globl __udivmodsi4
    .type __udivmodsi4, @function
    clz r3, r1, max, .Ldiv_zero
    clz r4, r0
    sub r3, r3, r4                      // k
    jlts r3, 0, .Ldiv_small             // dividend < divisor
    move r4, r1
    move r1, r0
    move r0, 0
    move r5, 31
    sub r5, r5, r3
    jump r5, .Ldiv_chain                // step k is at .Ldiv_chain + 31 - k
.Ldiv_chain:
    .irp k, 31,30,29,28,27,26,25,24,23,22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0
    div_step d0, r4, d0, \k
    .endr
    jump r23
.Ldiv_small:
    move r1, r0
    move r0, 0
    jump r23
.Ldiv_zero:
    fault 2                             // division by zero

// ---- __umulsidi3(r0, r1) -> d0 = r0 * r1 (64 bits) ------------------------------------------
// Four 16 x 16 products with __mulsi3: a = ah:al, b = bh:bl,
// a * b = ah*bh << 32 + (ah*bl + al*bh) << 16 + al*bl.
__umulsidi3:
    .globl __umulsidi3
    .type __umulsidi3, @function
    sd r22, 40, d22                     // frame of 48 bytes: d14, d16, d18 and the return
    sd r22, 0, d14
    sd r22, 8, d16
    sd r22, 16, d18
    add r22, r22, 48
    lsr r14, r0, 16                     // ah
    and r15, r0, 0xffff                 // al
    lsr r16, r1, 16                     // bh
    and r17, r1, 0xffff                 // bl
    move r0, r15
    move r1, r17
    call r23, __mulsi3
    move r18, r0                        // p0 = al * bl
    move r0, r14
    move r1, r16
    call r23, __mulsi3
    move r19, r0                        // p3 = ah * bh
    move r0, r15
    move r1, r16
    call r23, __mulsi3
    move r15, r0                        // p1 = al * bh
    move r0, r14
    move r1, r17
    call r23, __mulsi3                  // p2 = ah * bl
    add r15, r15, r0                    // mid = p1 + p2 (33 bits: CF)
    addc r16, zero, 0, false            // r16 = the carry of mid
    lsl r2, r15, 16
    add r1, r18, r2                     // low word = p0 + (mid << 16)
    lsr r2, r15, 16
    lsl_add r2, r2, r16, 16             // (mid >> 16) + (carry << 16)
    addc r0, r19, r2                    // high word = p3 + that + the carry of the low word
    ld d22, r22, -8                     // r22 is the caller's again
    ld d14, r22, 0
    ld d16, r22, 8
    ld d18, r22, 16
    jump r23

// ---- __muldi3(d0, d2) -> d0 = d0 * d2 (64 bits) -------------------------------------------
// lo(a) * lo(b) in full, plus (lo(a) * hi(b) + hi(a) * lo(b)) << 32.
__muldi3:
    .globl __muldi3
    .type __muldi3, @function
    sd r22, 24, d22
    sd r22, 0, d14
    sd r22, 8, d16
    add r22, r22, 32
    move r14, r0                        // hi(a)
    move r15, r1                        // lo(a)
    move r16, r2                        // hi(b)
    move r17, r3                        // lo(b)
    move r0, r15
    move r1, r16
    call r23, __mulsi3
    move r16, r0                        // lo(a) * hi(b)
    move r0, r14
    move r1, r17
    call r23, __mulsi3
    add r16, r16, r0                    // + hi(a) * lo(b)
    move r0, r15
    move r1, r17
    call r23, __umulsidi3               // lo(a) * lo(b)
    add r0, r0, r16
    ld d22, r22, -8
    ld d14, r22, 0
    ld d16, r22, 8
    jump r23

// ---- __udivmoddi4(d0 = n, d2 = d) -> d0 = n / d, d2 = n % d ----------------------------------
// When both fit in 32 bits, __udivmodsi4 (div_step); otherwise one bit per step: the 128-bit
// shift of remainder:dividend goes through the carry (add/addc), the compare is a 64-bit
// subtraction whose no-borrow carry (CF = 1) says the divisor fits.
__udivmoddi4:
    .globl __udivmoddi4
    .type __udivmoddi4, @function
    or r4, r0, r2
    jnz r4, .Ldd_long
    sd r22, 0, d22
    add r22, r22, 8
    move r0, r1
    move r1, r3
    call r23, __udivmodsi4
    move r3, r1                         // remainder
    move r1, r0                         // quotient
    move r0, 0
    move r2, 0
    ld d22, r22, -8
    jump r23
.Ldd_long:
    or r4, r2, r3
    jz r4, .Ldiv_zero
    move r6, 0                          // remainder d6 = 0
    move r7, 0
    move r8, 64                         // steps
.Ldd_step:
    add r1, r1, r1                      // remainder:dividend <<= 1, through the carry
    addc r0, r0, r0
    addc r7, r7, r7
    addc r6, r6, r6, c, .Ldd_sub        // a 65-bit remainder: the divisor fits
    sub r10, r7, r3                     // remainder - divisor
    subc r9, r6, r2, ltu, .Ldd_next     // borrow: the divisor does not fit
    jump .Ldd_take
.Ldd_sub:
    sub r10, r7, r3
    subc r9, r6, r2
.Ldd_take:
    move r6, r9
    move r7, r10
    or r1, r1, 1                        // quotient bit (the dividend's low bit was shifted out)
.Ldd_next:
    add r8, r8, -1, nz, .Ldd_step
    move r2, r6
    move r3, r7
    jump r23
