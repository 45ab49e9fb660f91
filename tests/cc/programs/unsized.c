/* Unsized arrays: the initializer gives the size (a brace list, with a trailing comma, of
 * numbers, of structs, or a string with its terminating zero), globally and as a local. */
#include "out.h"

struct pair { unsigned char lo; int hi; };

const unsigned char primes[] = { 2, 3, 5, 7, 11, 13, };
char word[] = "pico";
struct pair pairs[] = { { 1, 2 }, { 4, (5 + 6) * 2 } };

int main(void)
{
    unsigned char squares[] = { 1, 4, 9 };
    OUT(sizeof primes); OUT(primes[5]);
    OUT(sizeof word); OUT(word[3]); OUT(word[4]);
    OUT(sizeof pairs / sizeof pairs[0]); OUT(pairs[1].hi); OUT(pairs[0].lo);
    OUT(sizeof squares); OUT(squares[2]);
    DONE();
    return 0;
}
