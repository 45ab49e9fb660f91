/* malloc, calloc, realloc and free through picolibc's allocator (its heap lies between the end
   of .bss and the stack, from the linker script): contents survive realloc, calloc zeroes,
   freed blocks are reused. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    int *a = malloc(100 * sizeof *a);
    if (!a) { printf("malloc failed\n"); return 1; }
    for (int i = 0; i < 100; i++) a[i] = i * i;
    a = realloc(a, 1000 * sizeof *a);
    if (!a) { printf("realloc failed\n"); return 1; }
    long sum = 0;
    for (int i = 0; i < 100; i++) sum += a[i];
    printf("sum of squares 0..99 after realloc: %ld\n", sum);
    unsigned char *z = calloc(256, 1);
    int zeros = 0;
    for (int i = 0; i < 256; i++) zeros += z[i] == 0;
    printf("calloc zeros: %d\n", zeros);
    free(a);
    free(z);
    /* a list of blocks of growing size, freed in the reverse order */
    char *blocks[16];
    size_t total = 0;
    for (int i = 0; i < 16; i++) {
        blocks[i] = malloc((size_t)(i + 1) * 64);
        if (!blocks[i]) { printf("malloc %d failed\n", i); return 1; }
        memset(blocks[i], i, (size_t)(i + 1) * 64);
        total += (size_t)(i + 1) * 64;
    }
    int ok = 1;
    for (int i = 15; i >= 0; i--) {
        for (int k = 0; k < (i + 1) * 64; k++) ok &= blocks[i][k] == (char)i;
        free(blocks[i]);
    }
    printf("16 blocks, %u bytes, intact: %d\n", (unsigned)total, ok);
    printf("too big: %s\n", malloc(0x7ffffff0u) == NULL ? "NULL" : "non-NULL");
    return 0;
}
