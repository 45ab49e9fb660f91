/* Control flow and calls: loops, switch with fall-through, goto, break/continue, ?:, && and ||
 * with side effects, nested calls with 8/16/32-bit parameters and results. */
#include "out.h"

unsigned char calls;

unsigned char classify(unsigned char c)
{
    calls++;
    switch (c) {
    case 0: return 10;
    case 1:
    case 2: return 20;
    case 200: c = 3;   /* falls through */
    case 3: return (unsigned char)(30 + c);
    default: break;
    }
    return 99;
}

long mix(long a, unsigned int b, signed char c) { return a * 3 - (long)b + c; }

unsigned int fib(unsigned char n)
{
    unsigned int a = 0, b = 1;
    while (n--) {
        unsigned int t = a + b;
        a = b;
        b = t;
    }
    return a;
}

int main(void)
{
    unsigned char i, j, n = 0;
    for (i = 0; i < 6; i++) OUT(classify(i));
    OUT(classify(200));
    for (i = 0; i < 10; i++) {
        if (i == 2) continue;
        if (i == 7) break;
        n = (unsigned char)(n + i);
    }
    OUT(n);
    i = 0;
    do {
        i += 3;
    } while (i < 20);
    OUT(i);
    j = 0;
again:
    j++;
    if (j < 5) goto again;
    OUT(j);
    calls = 0;
    if (classify(0) == 10 || classify(1) == 20) OUT(calls);
    if (classify(0) == 11 && classify(1) == 20) OUT(0xEE);
    OUT(calls);
    OUT(j > 3 ? 0x33 : 0x44);
    long m = mix(-100000L, 40000u, -5);
    OUT(m); OUT(m >> 8); OUT(m >> 16); OUT(m >> 24);
    unsigned int f = fib(20);
    OUT(f); OUT(f >> 8);
    for (i = 0, j = 10; i < j; i++, j--) ;
    OUT(i);
    OUT(!i);
    OUT(-i);
    DONE();
    return 0;
}
