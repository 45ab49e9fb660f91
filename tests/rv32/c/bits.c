/* Comparisons (slt/sltu and their immediates), branches both ways on signed and unsigned
   values, bitwise logic, large constants (lui/addi), count-leading-zeros and popcount through
   libgcc (no Zbb), 64-bit add/subtract carries, a switch jump table and calls through
   function pointers (jalr). */
#include <stdint.h>
#include <stdio.h>

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }

static const char *name(volatile int k)
{
    switch (k) {
    case 0: return "zero";
    case 1: return "one";
    case 2: return "two";
    case 3: return "three";
    case 4: return "four";
    case 5: return "five";
    case 6: return "six";
    default: return "many";
    }
}

int main(void)
{
    volatile int32_t m1 = -1, one = 1, mn = INT32_MIN;
    printf("slt: %d %d sltu: %d %d\n", m1 < one, one < m1, (uint32_t)m1 < (uint32_t)one, (uint32_t)one < (uint32_t)m1);
    printf("slti: %d %d sltiu: %d %d\n", m1 < 0, mn < -2047, (uint32_t)m1 < 5u, (uint32_t)one < 5u);
    printf("branches: %d %d %d %d %d %d\n", m1 >= one, mn <= m1, (uint32_t)mn >= (uint32_t)one, m1 == -1,
           one != 1, (uint32_t)m1 > (uint32_t)mn);
    volatile uint32_t a = 0xf0f0f0f0u, b = 0x3c3c3c3cu;
    printf("and %08lx or %08lx xor %08lx not %08lx\n", (unsigned long)(a & b), (unsigned long)(a | b),
           (unsigned long)(a ^ b), (unsigned long)~a);
    printf("andi %08lx ori %08lx xori %08lx\n", (unsigned long)(a & 0x7ff), (unsigned long)(a | -2048),
           (unsigned long)(a ^ 0x555));
    printf("constants: %08lx %08lx %08lx %ld\n", 0x12345fffUL, 0xfffff800UL, 0x80000000UL, -2049L);
    static const uint32_t c[] = {0, 1, 0x80000000u, 0x00010000u, 0xffffffffu};
    for (int i = 0; i < 5; i++) {
        volatile uint32_t x = c[i];
        printf("x=%08lx clz=%d ctz=%d popcount=%d\n", (unsigned long)x, x ? __builtin_clz(x) : 32,
               x ? __builtin_ctz(x) : 32, __builtin_popcount(x));
    }
    volatile uint64_t p = 0x00000000ffffffffULL, q = 1;
    printf("64 add carry %016llx, sub borrow %016llx\n", (unsigned long long)(p + q),
           (unsigned long long)((uint64_t)0x100000000ULL - q));
    printf("64 compare: %d %d\n", (int64_t)p > (int64_t)-1, (uint64_t)-1 > p);
    for (int k = -1; k <= 8; k += 3) printf("switch %d: %s\n", k, name(k));
    int (*ops[3])(int, int) = {add, sub, mul};
    int acc = 5;
    for (int i = 0; i < 6; i++) acc = ops[i % 3](acc, i + 1);
    printf("function pointers: %d\n", acc);
    return 0;
}
