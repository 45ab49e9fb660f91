/* qsort with a comparison callback (indirect calls), and recursion deep enough to use the
   stack: Fibonacci and the Ackermann function. */
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static unsigned ack(unsigned m, unsigned n)
{
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

int main(void)
{
    int v[20];
    unsigned seed = 12345;
    for (int i = 0; i < 20; i++) {
        seed = seed * 1103515245u + 12345u; /* a fixed LCG: the same numbers everywhere */
        v[i] = (int)(seed >> 16) % 1000 - 500;
    }
    qsort(v, 20, sizeof v[0], cmp);
    for (int i = 0; i < 20; i++) printf("%d%c", v[i], i == 19 ? '\n' : ' ');
    printf("fib(20) = %u\n", fib(20));
    printf("ack(2,3) = %u, ack(3,3) = %u\n", ack(2, 3), ack(3, 3));
    return 0;
}
