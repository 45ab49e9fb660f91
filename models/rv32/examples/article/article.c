/* The ISE article's example from C on the rv32 host (docs/rv32.md, "Launch commands and the
 * system"): the host fills the example accelerator's memories with launch commands, runs Move,
 * MAC and CONV, and learns that CONV is done in each of the article's three ways: static timing,
 * a flag in shared memory, an interrupt. article.sys maps the accelerator's SHM, GRF and ACR
 * into the host's address space, and wires its interrupt line to the host's external interrupt.
 * Build: riscv64-unknown-elf-gcc -march=rv32im -misa-spec=2.2 -mabi=ilp32 -O2 -I include
 *        --specs=picolibc.specs --oslib=semihost --crt0=semihost (tests/cli/article_c.sh). */
#include <stdint.h>
#include <stdio.h>

#include <isekit/launch.h>

#define ACC 0                                          /* article.sys: accelerator = 0 */

/* The example accelerator's 24-bit command words (models/example/example.c): "11" then the
 * accelerator number wildcard (bits 21:20, 0 here), then each command's fields. */
#define CMD(x) (0xc00000u | (uint32_t)(x))
#define LDI(lr, imm) CMD(0x010000u | ((uint32_t)(imm) & 0xfffu) << 4 | (lr))   /* ldi lrN, imm */
#define SETLOOP(n) CMD(0x030000u | (n))                                       /* setloop n */
#define SETAR(ar, v) CMD(0x040000u | (ar) << 10 | (v))                        /* setar arN, v */
#define STDM(a, lr) CMD(0x080000u | (a) << 4 | (lr))                          /* stdm dm0[a], lrN */
#define STTM(a, lr) CMD(0x090000u | (a) << 4 | (lr))                          /* sttm tm0[a], lrN */
#define MOVE(gr, lr) CMD(0x000100u | (lr) << 4 | (gr))                        /* move grN, lrM */
#define MAC(s, t) CMD(0x000200u | (s) << 4 | (t))                             /* mac grS, grT */
#define CONV(d, t) CMD(0x000300u | (d) << 4 | (t))                            /* conv acc, dm0[arD], tm0[arT] */
#define CLRACC CMD(0x000400u)                                                 /* clracc */
#define CONVF(f, d, t) CMD((uint32_t)(f) << 12 | 0x000600u | (d) << 4 | (t))  /* convf shm[f], ... */

/* The accelerator's storages in the host's address space (article.sys `map` lines). */
#define SHM ((volatile int32_t *)0x40000000u)          /* INT(32) x 256: 4-byte cells */
#define GRF ((volatile int16_t *)0x40001000u)          /* INT(16) x 2: 2-byte cells */
#define ACR ((volatile uint32_t *)0x40002000u)         /* UINT(36): one 8-byte cell, two words */
#define PLIC_CLAIM (*(volatile uint32_t *)0x0c200004u) /* claiming acknowledges the line */

#define N 8
static const int16_t dm0[N] = { 3, -1, 4, 1, -5, 9, 2, -6 };
static const int16_t tm0[N] = { 2, 7, -1, 8, 2, -8, 1, 8 };

/* The accumulator as a signed 36-bit number. */
static int64_t acc(void)
{
    uint64_t v = (uint64_t)(ACR[1] & 0xfu) << 32 | ACR[0];
    return (int64_t)(v << 28) >> 28;
}

/* Launch `word` to accelerator 0 and return the clock of the launch: rdcycle and the launch are
 * adjacent instructions, one clock each. */
static inline uint32_t launch_timed(uint32_t word)
{
    uint32_t c;
    __asm__ volatile("rdcycle %0\n\t.insn i 0x0B, 0, x0, %1, 0" : "=&r"(c) : "r"(word) : "memory");
    return c + 1;
}

static void wait_clocks(uint32_t from, uint32_t n)
{
    while (isk_rdcycle() - from < n) {}
}

/* CONV's set-up: clear the accumulator, both address registers at 0, LOOPREG = N - 1 (so CONV
 * multiplies N pairs in LOOPREG + 2 clocks). */
static void conv_setup(void)
{
    isk_launch(ACC, CLRACC);
    isk_launch(ACC, SETAR(0, 0));
    isk_launch(ACC, SETAR(1, 0));
    isk_launch(ACC, SETLOOP(N - 1));
}

static volatile uint32_t irq_clock, irq_taken;

__attribute__((interrupt("machine"))) static void on_trap(void)
{
    irq_clock = isk_rdcycle();
    irq_taken = PLIC_CLAIM;                            /* line 0 is PLIC source 1 */
}

int main(void)
{
    /* DM0 and TM0 from the host's arrays, through LR0 and LR1 */
    for (int i = 0; i < N; i++) {
        isk_launch(ACC, LDI(0, dm0[i]));
        isk_launch(ACC, STDM(i, 0));
        isk_launch(ACC, LDI(1, tm0[i]));
        isk_launch(ACC, STTM(i, 1));
    }

    /* Move: LR2 = 7, LR3 = -3 into GR0, GR1; MAC: ACC = 0 + GR0 * GR1 (2 clocks) */
    isk_launch(ACC, LDI(2, 7));
    isk_launch(ACC, LDI(3, -3));
    isk_launch(ACC, MOVE(0, 2));
    isk_launch(ACC, MOVE(1, 3));
    isk_launch(ACC, CLRACC);
    uint32_t mac = launch_timed(MAC(0, 1));
    wait_clocks(mac, 2);
    printf("move: gr0 = %d, gr1 = %d\n", GRF[0], GRF[1]);
    printf("mac: acc = %lld\n", (long long)acc());

    /* 1. static timing: CONV takes LOOPREG + 2 clocks; its interrupt is left pending (mie off)
     * and acknowledged afterwards */
    conv_setup();
    uint32_t l1 = launch_timed(CONV(0, 1));
    wait_clocks(l1, (N - 1) + 2);
    uint32_t s1 = isk_rdcycle();
    int64_t r1 = acc();
    (void)PLIC_CLAIM;
    printf("static: acc = %lld, launched at clock %lu, read after %lu clocks\n", (long long)r1,
           (unsigned long)l1, (unsigned long)(s1 - l1));

    /* 2. a flag: CONVF writes SHM[1] = 1 in its last clock; the host polls the mapped cell */
    SHM[1] = 0;
    conv_setup();
    uint32_t l2 = launch_timed(CONVF(1, 0, 1));
    while (SHM[1] == 0) {}
    uint32_t s2 = isk_rdcycle();
    printf("flag: acc = %lld, launched at clock %lu, flag seen after %lu clocks\n", (long long)acc(),
           (unsigned long)l2, (unsigned long)(s2 - l2));

    /* 3. the interrupt: CONV's InterruptProcessor() is the host's machine external interrupt;
     * the trap handler notes the clock, claims the line; main waits with wfi */
    __asm__ volatile("csrw mtvec, %0" : : "r"(on_trap));
    __asm__ volatile("csrs mie, %0" : : "r"(1u << 11));          /* MEIE */
    __asm__ volatile("csrsi mstatus, 8");                         /* MIE */
    conv_setup();
    uint32_t l3 = launch_timed(CONV(0, 1));
    while (!irq_taken) __asm__ volatile("wfi");
    printf("interrupt: acc = %lld, launched at clock %lu, handler ran after %lu clocks (claimed source %lu)\n",
           (long long)acc(), (unsigned long)l3, (unsigned long)(irq_clock - l3), (unsigned long)irq_taken);
    return 0;
}
