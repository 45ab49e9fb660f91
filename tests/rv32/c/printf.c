/* printf's integer, character, string and pointer conversions with flags, widths, precisions
   and length modifiers (hh, h, l, ll); floats are in float.c. */
#include <stdint.h>
#include <stdio.h>

int main(void)
{
    printf("[%d] [%i] [%u] [%x] [%X] [%o]\n", -42, 42, 4000000000u, 0xbeefu, 0xbeefu, 8u);
    printf("[%5d] [%-5d] [%05d] [%+d] [% d] [%+d]\n", 42, 42, 42, 42, 42, -42);
    printf("[%#x] [%#o] [%#X] [%.5d] [%8.3d] [%-8.3d]\n", 255u, 8u, 255u, 42, 7, -7);
    printf("[%c] [%5c] [%-3c] [%%]\n", 'A', 'B', 'C');
    printf("[%s] [%10s] [%-10s] [%.3s] [%*d] [%-*d] [%.*s]\n", "str", "right", "left", "truncate", 6, 99,
           6, 99, 2, "xyz");
    printf("[%hhd] [%hhu] [%hd] [%hu]\n", (signed char)-1, (unsigned char)255, (short)-32768, (unsigned short)65535);
    printf("[%ld] [%lu] [%lx]\n", -2147483647L - 1, 4294967295UL, 0xdeadbeefUL);
    printf("[%lld] [%llu] [%llx] [%016llX]\n", (long long)INT64_MIN, (unsigned long long)UINT64_MAX,
           0x123456789abcdefULL, 0xfedcba98ULL);
    printf("[%p] [%p]\n", (void *)0, (void *)0x80001234u);
    int n = printf("twelve chars");
    printf(" <- printf returned %d\n", n);
    return 0;
}
