/* Data: arrays, pointers and pointer arithmetic, structs and struct copies, initialized globals,
 * static locals, compound assignments through pointers, pre/post increments. */
#include "out.h"

struct rec { unsigned char tag; int value; long wide; };

unsigned char table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
struct rec recs[2];
char text[6] = "hello";

unsigned char sum(unsigned char *p, unsigned char n)
{
    unsigned char s = 0;
    while (n--) s = (unsigned char)(s + *p++);
    return s;
}

void fill(struct rec *r, unsigned char tag)
{
    r->tag = tag;
    r->value = -300 * tag;
    r->wide = 70000L * tag;
}

unsigned char counter(void)
{
    static unsigned char count = 40;
    return ++count;
}

int main(void)
{
    unsigned char i;
    OUT(sum(table, 8));
    OUT(sum(&table[2], 3));
    unsigned char *p = table + 7;
    OUT(*p);
    OUT(p - table);
    *--p += 10;
    OUT(table[6]);
    p[-1] *= 3;
    OUT(table[5]);
    fill(&recs[1], 2);
    recs[0] = recs[1];
    recs[0].tag++;
    OUT(recs[0].tag);
    OUT(recs[0].value); OUT(recs[0].value >> 8);
    OUT(recs[1].wide); OUT(recs[1].wide >> 8); OUT(recs[1].wide >> 16);
    struct rec local = { 7, 8, 9 };
    OUT(local.tag + local.value + (unsigned char)local.wide);
    for (i = 0; text[i]; i++) OUT(text[i]);
    OUT(counter());
    OUT(counter());
    int arr[3][2];
    for (i = 0; i < 3; i++) { arr[i][0] = i * 100; arr[i][1] = -i; }
    OUT(arr[2][0]); OUT(arr[2][0] >> 8); OUT(arr[1][1]);
    OUT(sizeof arr / sizeof arr[0]);   /* the host pads structs, so no sizeof(struct rec) */
    unsigned int x = 1000;
    x <<= 3; x /= 7; x %= 100; x |= 0x100; x ^= 3; x -= 1;
    OUT(x); OUT(x >> 8);
    DONE();
    return 0;
}
