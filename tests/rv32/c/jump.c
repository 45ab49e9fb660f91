/* setjmp/longjmp out of nested calls, with a value; locals kept in volatile survive. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;
static volatile int armed = 1; /* always 1: without it gcc sees deep() never return */

static void deep(int n)
{
    if (n == 0) {
        if (armed) longjmp(env, 42);
        return;
    }
    deep(n - 1);
    printf("not reached\n");
}

int main(void)
{
    volatile int rounds = 0;
    int r = setjmp(env);
    printf("setjmp returned %d (round %d)\n", r, rounds);
    if (rounds++ < 2) {
        if (rounds == 2) longjmp(env, 0); /* longjmp with 0 makes setjmp return 1 */
        deep(10);
    }
    printf("done after %d rounds\n", rounds);
    return 0;
}
