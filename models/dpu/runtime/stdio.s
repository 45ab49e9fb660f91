// printf, puts and putchar for isekit's DPU runtime: the SDK's transport (elf-abi.md 10).
// Each call writes one record to the MRAM buffer __stdout_buffer for the host to format
// (isekit run prints them):
//   a descriptor: the format with every run of literal text replaced by %s (`L` dropped,
//   `i` written `d`), then NUL; then, in order, the literal runs (each NUL-terminated) and the
//   arguments: %s the string and NUL, %c 1 byte, f e E g G the 8-byte double, other
//   conversions 4 bytes, or 8 with an l/L modifier, all little-endian.
// Bytes go through an 8-byte cache in WRAM and reach MRAM 8 at a time; a record ends with its
// last cache zero-padded, so the next one starts 8-aligned. The buffer wraps at
// __stdout_buffer_size (has_wrapped is set); __atomic_bit___stdout_buffer_lock serialises the
// tasklets.
//
// Calling convention of the variable arguments (our runtime's; the pack does not give the
// SDK's layout): they are the caller's outgoing stack arguments, just below the pair the caller
// saved at r22 - 8 (elf-abi.md 7): argument k in the 8-byte slot at r22 - 16 - 8 k (a 32-bit
// value in the slot's first 4 bytes), and the call leaves r22 unchanged; printf(r0 = format).

    .ifndef STDOUT_BUFFER_SIZE
    .set STDOUT_BUFFER_SIZE, 0x100000
    .endif

    .section .mram.noinit, "aw", @nobits
    .p2align 3
__stdout_buffer:
    .globl __stdout_buffer
    .space STDOUT_BUFFER_SIZE

    .data
    .p2align 2
__stdout_buffer_size:
    .globl __stdout_buffer_size
    .long STDOUT_BUFFER_SIZE

    .section .atomic, "aw", @nobits
__atomic_bit___stdout_buffer_lock:
    .globl __atomic_bit___stdout_buffer_lock
    .space 1

    .text
// The record writer keeps its state in callee-saved registers, saved by each entry point:
//   r15 the buffer's write pointer, r16 bytes in the cache, r21 the link of .Lemit.

// ---- .Lemit(r0 = byte): one byte into the cache; full caches go to MRAM (scratch r5, r6) ---
.Lemit:
    sb r16, __stdout_cache_buffer, r0
    add r16, r16, 1
    jneq r16, 8, .Lemit_done
    move r5, __stdout_cache_buffer      // 8 bytes: size code 0 in bits 31:24
    move r6, __stdout_buffer
    add r6, r6, r15
    sdma r5, r6, 0
    move r16, 0
    add r15, r15, 8
    lw r5, zero, __stdout_buffer_size
    jltu r15, r5, .Lemit_done
    move r15, 0                         // wrap
    move r5, 1
    sw zero, __stdout_buffer_state + 4, r5
.Lemit_done:
    jump r21

// Open a record: save r14..r21, take the lock, load the write pointer. r20 = the caller's r22.
.Lopen:
    sd r22, 0, d14
    sd r22, 8, d16
    sd r22, 16, d18
    sd r22, 24, d20
    move r20, r22
    add r22, r22, 40                    // with r22/r23 at 32 (saved by the entry point)
    acquire zero, __atomic_bit___stdout_buffer_lock, nz, .
    lw r15, zero, __stdout_buffer_state
    move r16, 0
    jump r23

// Close it: pad and flush the cache, store the write pointer, unlock, restore, return.
.Lclose:
    jz r16, .Lclose_done
    move r0, 0
    call r21, .Lemit
    jump .Lclose
.Lclose_done:
    sw zero, __stdout_buffer_state, r15
    release zero, __atomic_bit___stdout_buffer_lock, nz, . + 1
    ld d22, r22, -8                     // the caller's r22 and the return address
    ld d14, r22, 0
    ld d16, r22, 8
    ld d18, r22, 16
    ld d20, r22, 24
    jump r23

// ---- putchar(r0 = c) -------------------------------------------------------------------------
putchar:
    .globl putchar
    .type putchar, @function
    sd r22, 32, d22
    call r23, .Lopen                    // (r0 is kept)
    move r14, r0
    move r0, 37                         // "%c"
    call r21, .Lemit
    move r0, 99
    call r21, .Lemit
    move r0, 0
    call r21, .Lemit
    move r0, r14
    call r21, .Lemit
    jump .Lclose

// ---- puts(r0 = string): the string and a newline ------------------------------------------
puts:
    .globl puts
    .type puts, @function
    sd r22, 32, d22
    call r23, .Lopen                    // (r0 is kept)
    move r14, r0
    move r0, 37                         // "%s"
    call r21, .Lemit
    move r0, 115
    call r21, .Lemit
    move r0, 0
    call r21, .Lemit
.Lputs_loop:
    lbu r0, r14, 0
    jz r0, .Lputs_end
    call r21, .Lemit
    add r14, r14, 1
    jump .Lputs_loop
.Lputs_end:
    move r0, 10
    call r21, .Lemit
    move r0, 0
    call r21, .Lemit
    jump .Lclose

// ---- printf(r0 = format, ...) ------------------------------------------------------------------
// r14 the format, r17 the current character, r18 inside a literal run, r19 the next argument,
// r2 the 8-byte (l/L) flag, r3/r4 the argument.
printf:
    .globl printf
    .type printf, @function
    sd r22, 32, d22
    call r23, .Lopen                    // (r0 is kept)
    move r14, r0
    // pass 1: the descriptor
    move r17, r14
    move r18, 0
.Ld_loop:
    lbu r0, r17, 0
    jz r0, .Ld_end
    jneq r0, 37, .Ld_literal            // not '%'
    lbu r1, r17, 1
    jneq r1, 37, .Ld_conversion
    add r17, r17, 1                     // "%%" is literal text
    jump .Ld_literal
.Ld_conversion:
    move r18, 0
    call r21, .Lemit                    // '%'
    add r17, r17, 1
.Ld_spec:
    lbu r0, r17, 0
    jz r0, .Ld_end
    add r17, r17, 1
    jeq r0, 76, .Ld_spec                // 'L' is dropped
    jneq r0, 105, .Ld_emit              // 'i' is written 'd'
    move r0, 100
.Ld_emit:
    call r21, .Lemit
    call r23, .Lis_conversion
    jz r1, .Ld_spec
    jump .Ld_loop
.Ld_literal:
    jnz r18, .Ld_next
    move r18, 1                         // a run of literal text starts: "%s"
    move r0, 37
    call r21, .Lemit
    move r0, 115
    call r21, .Lemit
.Ld_next:
    add r17, r17, 1
    jump .Ld_loop
.Ld_end:
    move r0, 0
    call r21, .Lemit
    // pass 2: the literal runs and the arguments
    move r17, r14
    move r18, 0
    move r19, 0
.La_loop:
    lbu r0, r17, 0
    jz r0, .La_end
    jneq r0, 37, .La_literal
    lbu r1, r17, 1
    jneq r1, 37, .La_conversion
    add r17, r17, 1                     // "%%": one '%'
    jump .La_literal
.La_conversion:
    jz r18, .La_spec_start
    move r0, 0                          // the end of a literal run
    call r21, .Lemit
    move r18, 0
.La_spec_start:
    add r17, r17, 1
    move r2, 0
.La_spec:
    lbu r0, r17, 0
    jz r0, .La_end
    add r17, r17, 1
    jeq r0, 108, .La_long               // 'l'
    jeq r0, 76, .La_long                // 'L'
    call r23, .Lis_conversion
    jz r1, .La_spec
    lsl r3, r19, 3                      // the argument's slot: caller's r22 - 16 - 8 k
    sub r3, r20, r3
    add r3, r3, -16
    add r19, r19, 1
    jeq r0, 115, .La_string
    jeq r0, 99, .La_char
    jeq r0, 102, .La_8                  // f e E g G: a double
    jeq r0, 101, .La_8
    jeq r0, 69, .La_8
    jeq r0, 103, .La_8
    jeq r0, 71, .La_8
    jnz r2, .La_8
    lw r4, r3, 0
    call r23, .Lemit_word
    jump .La_loop
.La_long:
    move r2, 1
    jump .La_spec
.La_8:
    lw r4, r3, 0
    call r23, .Lemit_word
    lw r4, r3, 4
    call r23, .Lemit_word
    jump .La_loop
.La_char:
    lbu r0, r3, 0
    call r21, .Lemit
    jump .La_loop
.La_string:
    lw r4, r3, 0
.La_string_loop:
    lbu r0, r4, 0
    call r21, .Lemit
    add r4, r4, 1
    jnz r0, .La_string_loop
    jump .La_loop
.La_literal:
    move r18, 1
    call r21, .Lemit
    add r17, r17, 1
    jump .La_loop
.La_end:
    jz r18, .Lclose
    move r0, 0
    call r21, .Lemit
    jump .Lclose

// r4 -> 4 bytes, little-endian (uses r0, r4)
.Lemit_word:
    move r7, r23
    and r0, r4, 0xff
    call r21, .Lemit
    lsr r0, r4, 8
    and r0, r0, 0xff
    call r21, .Lemit
    lsr r0, r4, 16
    and r0, r0, 0xff
    call r21, .Lemit
    lsr r0, r4, 24
    call r21, .Lemit
    jump r7

// r1 = 1 if r0 is a conversion character (d i u o x X c s f e E g G p), else 0
.Lis_conversion:
    move r1, 1
    jeq r0, 100, .Lis_yes
    jeq r0, 105, .Lis_yes
    jeq r0, 117, .Lis_yes
    jeq r0, 111, .Lis_yes
    jeq r0, 120, .Lis_yes
    jeq r0, 88, .Lis_yes
    jeq r0, 99, .Lis_yes
    jeq r0, 115, .Lis_yes
    jeq r0, 102, .Lis_yes
    jeq r0, 101, .Lis_yes
    jeq r0, 69, .Lis_yes
    jeq r0, 103, .Lis_yes
    jeq r0, 71, .Lis_yes
    jeq r0, 112, .Lis_yes
    move r1, 0
.Lis_yes:
    jump r23
