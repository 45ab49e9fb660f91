/* Shifts by 0, 1, 31 and by amounts held in registers (sll/srl/sra use only the low five bits
   of rs2: tested through inline asm, since C leaves shifts by 32 or more undefined), and
   64-bit shifts across the word boundary (libgcc or inline sequences). */
#include <stdint.h>
#include <stdio.h>

#define OP(name) \
    static uint32_t name(uint32_t a, uint32_t b) { uint32_t r; __asm__ volatile(#name " %0,%1,%2" : "=r"(r) : "r"(a), "r"(b)); return r; }
OP(sll)
OP(srl)
OP(sra)

int main(void)
{
    volatile uint32_t x = 0x80000001u;
    volatile int32_t s = (int32_t)0x80000001u;
    static const unsigned amounts[] = {0, 1, 4, 31};
    for (unsigned i = 0; i < sizeof amounts / sizeof amounts[0]; i++) {
        volatile unsigned n = amounts[i];
        printf("n=%2u: x<<n=0x%08lx x>>n=0x%08lx s>>n=0x%08lx\n", n, (unsigned long)(x << n),
               (unsigned long)(x >> n), (unsigned long)(uint32_t)(s >> n));
    }
    /* immediates: slli/srli/srai */
    printf("imm: 0x%08lx 0x%08lx 0x%08lx\n", (unsigned long)(x << 31), (unsigned long)(x >> 31),
           (unsigned long)(uint32_t)(s >> 31));
    /* register amounts 32, 33, 63, -1: only the low five bits count */
    static const uint32_t big[] = {32, 33, 63, 0xffffffffu};
    for (unsigned i = 0; i < 4; i++)
        printf("rs2=0x%08lx: sll=0x%08lx srl=0x%08lx sra=0x%08lx\n", (unsigned long)big[i],
               (unsigned long)sll(x, big[i]), (unsigned long)srl(x, big[i]), (unsigned long)sra(x, big[i]));
    volatile uint64_t w = 0x8000000180000001ULL;
    volatile int64_t sw = (int64_t)0x8000000180000001ULL;
    static const unsigned n64[] = {0, 1, 31, 32, 33, 63};
    for (unsigned i = 0; i < 6; i++) {
        volatile unsigned n = n64[i];
        printf("64 n=%2u: <<0x%016llx >>0x%016llx s>>0x%016llx\n", n, (unsigned long long)(w << n),
               (unsigned long long)(w >> n), (unsigned long long)(uint64_t)(sw >> n));
    }
    return 0;
}
