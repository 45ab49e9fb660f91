// 64-bit multiply and divide with the runtime's mul_step/div_step routines. Tasklet t:
//   a = 0x12345678 + t * 0x01010101, b = 0x9abcdef0 - t * 0x1111         (__mulsi3)
//   p = a * b                      64 bits from 32 x 32                   (__umulsidi3)
//   q = p / b                      64-bit division, must give a           (__udivmoddi4)
//   y = 2^32 + 7 + t;  q2, r2 = p / y, p % y                               (__udivmoddi4)
//   m = q2 * y                     64 x 64 -> 64                          (__muldi3)
//   q3, r3 = (1000000 + t) / 7     the 32-bit path (__udivmodsi4, div_step)
// into results[t] = { p, q, q2, r2, m, q3, r3 } (48 bytes); tasklet 0 prints its line.

    .data
    .p2align 3
results:
    .globl results
    .space 48 * 24
fmt:
    .asciz "muldiv: %x * %x = %llx, / %x = %llx, %u / 7 = %u rem %u\n"

    .text
main:
    .globl main
    sd r22, 120, d22                    // frame 128: d14..d20 at 0..31, 8 argument slots
    sd r22, 0, d14
    sd r22, 8, d16
    sd r22, 16, d18
    sd r22, 24, d20
    add r22, r22, 128
    move r0, id
    move r1, 0x01010101
    call r23, __mulsi3
    add r15, r0, 0x12345678             // a
    move r0, id
    move r1, 0x1111
    call r23, __mulsi3
    sub r16, 0x9abcdef0, r0             // b
    move r0, id
    move r1, 48
    call r23, __mulsi3
    add r20, r0, results                // &results[t]
    move r0, r15
    move r1, r16
    call r23, __umulsidi3
    move r18, r0                        // p = d18
    move r19, r1
    sd r20, 0, d18
    move r2, 0                          // q = p / b
    move r3, r16
    call r23, __udivmoddi4
    sd r20, 8, d0
    move r0, r18                        // q2, r2 = p / y, y = 1:(7 + t)
    move r1, r19
    move r2, 1
    add r3, id, 7
    call r23, __udivmoddi4
    sd r20, 16, d0
    sd r20, 24, d2
    move r2, 1                          // m = q2 * y
    add r3, id, 7
    call r23, __muldi3
    sd r20, 32, d0
    move r0, 0                          // q3, r3 = (1000000 + t) / 7
    add r1, id, 1000000
    move r2, 0
    move r3, 7
    call r23, __udivmoddi4
    sw r20, 40, r1
    sw r20, 44, r3
    jnz id, .Lret
    sw r22, -16, r15                    // a
    sw r22, -24, r16                    // b
    sd r22, -32, d18                    // p (%llx: low word first)
    sw r22, -40, r16                    // b
    ld d0, r20, 8
    sd r22, -48, d0                     // q
    add r1, id, 1000000
    sw r22, -56, r1
    lw r1, r20, 40
    sw r22, -64, r1
    lw r1, r20, 44
    sw r22, -72, r1
    move r0, fmt
    call r23, printf
.Lret:
    move r0, 0
    ld d22, r22, -8
    ld d14, r22, 0
    ld d16, r22, 8
    ld d18, r22, 16
    ld d20, r22, 24
    jump r23
