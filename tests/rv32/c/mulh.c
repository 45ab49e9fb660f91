/* mul, mulh, mulhsu and mulhu: the high words of 64-bit products, from C (gcc emits mulh/mulhu
   for these) and from inline mulhsu, which C has no plain way to ask for. */
#include <stdint.h>
#include <stdio.h>

static uint32_t mulhsu(uint32_t a, uint32_t b)
{
    uint32_t r;
    __asm__ volatile("mulhsu %0,%1,%2" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

int main(void)
{
    static const uint32_t v[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x12345678u};
    for (unsigned i = 0; i < 6; i++)
        for (unsigned j = i; j < 6; j++) {
            volatile uint32_t a = v[i], b = v[j];
            uint32_t lo = a * b;
            uint32_t hs = (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32);
            uint32_t hu = (uint32_t)(((uint64_t)a * b) >> 32);
            printf("%08lx*%08lx: mul=%08lx mulh=%08lx mulhu=%08lx mulhsu=%08lx\n", (unsigned long)a,
                   (unsigned long)b, (unsigned long)lo, (unsigned long)hs, (unsigned long)hu,
                   (unsigned long)mulhsu(a, b));
        }
    volatile int64_t x = -123456789LL, y = 987654321LL; /* product fits: no overflow */
    printf("64-bit product: %lld\n", (long long)(x * y));
    return 0;
}
