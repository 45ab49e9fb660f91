/* PicoBlaze storage, shared by KCPSM3 and KCPSM6, and the frame every instruction runs in.
 *
 * The core file (kcpsm3.c, kcpsm6.c) defines its configuration before including this header:
 *
 *   PB_CORE          3 or 6
 *   PB_PC_BITS       10 (1024-word program space) or 12 (4096)
 *   PB_BANKS         1 (KCPSM3) or 2 (KCPSM6: banks A and B)
 *   PB_Z_CHAINS      1 if ADDCY/SUBCY (and COMPARECY/TESTCY) AND the new Z with the old one
 *   PB_STACK_RESETS  1 if a stack overflow/underflow forces an internal reset (KCPSM6), else it wraps
 *   PB_SHADOW_FLAGS  1 if an interrupt saves C and Z in one shadow register (KCPSM3), else on the stack
 *
 * Facts: picoblaze-isa.md of the EdkDSP reference pack (sections 1-9). Every storage latency is 0:
 * an instruction's effects are visible to the next one, as in the hardware's 2-clock instruction.
 */
#ifndef PB_STATE_H
#define PB_STATE_H

#include <isekit/model.h>

#include "include/isekit/picoblaze.h"

#define PB_PROGRAM_WORDS (1u << PB_PC_BITS)
#define PB_PC_MASK (PB_PROGRAM_WORDS - 1u)

STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(18, 0), PB_PROGRAM_WORDS) IROM;   /* the program ROM, 18-bit words */
    DECLARE_REGISTERS_FILE(UINT(8, 0), 16 * PB_BANKS) REGS;     /* s0..sF (KCPSM6: bank A, then bank B) */
    /* The flags, the small control registers and the interrupt pin, in one file so that an
     * instruction reaches all of them through one pointer (see CONTROL_NAMES for the cells). */
    DECLARE_REGISTERS_FILE(UINT(8, 0), 8) CONTROL;
    DECLARE_MEMORY(UINT(8, 0), 256) SPM;                        /* scratchpad (scratchpad_size bytes used) */
    /* The 32-entry call stack RAM (its pointer is CONTROL's SP). An entry holds a program address
     * in bits 11:0 and, on KCPSM6, the C, Z and bank of the moment in bits 12, 13, 14. */
    DECLARE_MEMORY(UINT(15, 0), 32) STACK;
    DECLARE_REGISTER(UINT(32, 0)) INTERRUPTS;                   /* statistics: interrupts taken */
    DECLARE_REGISTER(UINT(32, 0)) RESETS;                       /* statistics: internal resets (KCPSM6) */
    /* Configuration read from the PARAMs at reset (not architectural state). */
    uint32_t spm_mask;          /* scratchpad size - 1 */
    uint32_t vector;            /* interrupt vector */
    uint32_t hwbuild;           /* KCPSM6 HWBUILD value */
    uint32_t fetched;           /* a watched FETCH's address + 1 for pb_after_instruction, else 0 */
STATE_END

/* ---- the datasheet's names -------------------------------------------------------------- */

/* The cells of CONTROL; each holds the value of a register of the width given. */
enum pb_control {
    PB_C,                /* 1 bit: carry / borrow / parity */
    PB_Z,                /* 1 bit: zero */
    PB_IE,               /* 1 bit: interrupt enable */
    PB_BANK,             /* 1 bit: the active register bank (KCPSM6) */
    PB_SP,               /* 5 bits: the call stack pointer */
    PB_SHADOW,           /* 2 bits: KCPSM3: C (bit 0) and Z (bit 1) saved by an interrupt */
    PB_INTERRUPT,        /* the interrupt input pin (a level, driven by the system) */
    PB_RESET_PENDING,    /* KCPSM6: 2 = internal reset after the next instruction, 1 = after this one */
};
#define PB_CONTROL_NAMES { "C", "Z", "IE", "BANK", "SP", "SHADOW", "INTERRUPT", "RESET_PENDING" }
/* The cells an instruction works on: CONTROL's cells (indexed by enum pb_control) and the
 * registers s0..sF of the active bank. A function reads them once, into a local
 * `const pb_cells r = pb_cells_of(S);` (or takes r from its caller; one that needs only CONTROL
 * reads CELLS(CONTROL) into a local `control`), and then uses r.control[] and r.bank[] only:
 * the cells are uint8_t, and a store through a character type may alias anything, S->CONTROL.v
 * and S->REGS.v included, so reading CELLS() after a store would reload the pointers. No
 * instruction reads a register after switching banks (a new bank applies from the next
 * instruction), so the bank read here holds for the whole instruction. Register numbers come
 * from 4-bit fields, so r.bank[x] is always in range. */
typedef struct pb_cells {
    uint8_t *control;
    uint8_t *bank;
} pb_cells;

/* The offset in REGS of the active bank's s0 (KCPSM3 has one bank: always 0). */
ISK_INLINE unsigned pb_bank_base(const uint8_t *control)
{
    return PB_BANKS > 1 ? control[PB_BANK] * 16u : 0u;
}

ISK_INLINE pb_cells pb_cells_of(STATE)
{
    uint8_t *const control = CELLS(CONTROL);
    return (pb_cells){ .control = control, .bank = CELLS(REGS) + pb_bank_base(control) };
}

/* PB_BEHAVIOUR(Name, operands) { ... } is a behaviour whose body takes the cells as `r`: the
 * behaviour reads them (pb_cells_of), and the fast loop (pb_run.h) calls Name_cells with its
 * own, kept in registers across a run of instructions. */
#define PB_BEHAVIOUR(name, ...) \
    ISK_INLINE void name##_cells(STATE, pb_cells r ISK_PARAMS(__VA_ARGS__)); \
    BEHAVIOUR(name, __VA_ARGS__) { name##_cells(S, pb_cells_of(S), __VA_ARGS__); } \
    ISK_INLINE void name##_cells(STATE, pb_cells r ISK_PARAMS(__VA_ARGS__))

/* ---- the frame of every instruction --------------------------------------------------------
 * The interrupt input is sampled in the instruction's first clock, before the instruction has any
 * effect (a request raised by this instruction's own OUTPUT is seen by the next one); the
 * interrupt is taken after the instruction if it was sampled high and IE is 1 afterwards. The
 * PC wraps at the end of the program space (only a sequential step can leave it: every jump
 * target is a program address). The three checks cost one test on the common path, and the
 * common path does not write NEXT_PC, which would put a store and a reload between this
 * instruction's and the next one's fetch. The engine inlines pb_before and pb_after around
 * every behaviour (INSTRUCTION_FRAME, isekit/model.h). */
static void pb_after_instruction(STATE, unsigned irq_sampled);

#define INSTRUCTION_FRAME pb
/* The fast loop (pb_run.h) that runs the behaviours inside one function. */
static isk_burst_fn pb_burst;
ISK_INLINE uint64_t pb_before(STATE) { return CELLS(CONTROL)[PB_INTERRUPT]; }
ISK_INLINE void pb_after(STATE, uint64_t irq_sampled)
{
    const uint8_t *const control = CELLS(CONTROL);
    if (ISK_UNLIKELY((irq_sampled & control[PB_IE]) | control[PB_RESET_PENDING] | (NEXT_PC >> PB_PC_BITS)))
        pb_after_instruction(S, (unsigned)irq_sampled);
}

/* ---- configuration ------------------------------------------------------------------------ */

/* The parameters were checked when they were set (pb_describe_common declares them). */
static void pb_read_params(STATE)
{
    S->spm_mask = (uint32_t)GET_PARAM("scratchpad_size") - 1;
    S->vector = (uint32_t)GET_PARAM("interrupt_vector");
    S->hwbuild = (uint32_t)GET_PARAM("hwbuild");
}

#endif
