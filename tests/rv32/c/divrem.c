/* Division and remainder corner cases. The hardware cases C leaves undefined (by zero,
   INT_MIN / -1) go through inline div/rem so that the instruction itself is tested;
   the rest is plain C on volatile operands (so nothing folds at compile time), and 64-bit
   division goes through libgcc's __divdi3/__udivdi3/__moddi3/__umoddi3. */
#include <stdint.h>
#include <stdio.h>

#define OP(name) \
    static int32_t name(int32_t a, int32_t b) { int32_t r; __asm__ volatile(#name " %0,%1,%2" : "=r"(r) : "r"(a), "r"(b)); return r; }
OP(div)
OP(divu)
OP(rem)
OP(remu)

int main(void)
{
    volatile int32_t z = 0, m1 = -1, mn = INT32_MIN, seven = 7, mseven = -7, two = 2;
    printf("div 7/0 = %ld, divu 7/0 = 0x%lx\n", (long)div(seven, z), (unsigned long)divu(seven, z));
    printf("rem 7%%0 = %ld, remu -7%%0 = 0x%lx\n", (long)rem(seven, z), (unsigned long)remu(mseven, z));
    printf("div INT_MIN/-1 = %ld, rem INT_MIN%%-1 = %ld\n", (long)div(mn, m1), (long)rem(mn, m1));
    printf("divu INT_MIN/-1 = %lu, remu INT_MIN%%-1 = %lu\n", (unsigned long)divu(mn, m1), (unsigned long)remu(mn, m1));
    printf("-7/2 = %ld, -7%%2 = %ld, 7/-2 = %ld, 7%%-2 = %ld\n", (long)(mseven / two), (long)(mseven % two),
           (long)(seven / -two), (long)(seven % -two));
    volatile uint32_t big = 0xfffffff9u, utwo = 2;
    printf("0xfffffff9u/2 = %lu, %%2 = %lu\n", (unsigned long)(big / utwo), (unsigned long)(big % utwo));
    printf("INT_MIN/2 = %ld, INT_MIN%%3 = %ld\n", (long)(mn / two), (long)(mn % 3));

    volatile int64_t a = -1000000000000LL, b = 7;
    volatile uint64_t ua = 0xffffffffffffffffULL, ub = 10;
    printf("64: %lld / %lld = %lld rem %lld\n", (long long)a, (long long)b, (long long)(a / b), (long long)(a % b));
    printf("64u: %llu / %llu = %llu rem %llu\n", (unsigned long long)ua, (unsigned long long)ub,
           (unsigned long long)(ua / ub), (unsigned long long)(ua % ub));
    volatile int64_t lmin = INT64_MIN, lm3 = -3;
    printf("64: INT64_MIN / -3 = %lld rem %lld\n", (long long)(lmin / lm3), (long long)(lmin % lm3));
    return 0;
}
