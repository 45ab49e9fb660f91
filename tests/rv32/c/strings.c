/* String and memory functions of picolibc: lengths, comparisons, copies that overlap
   (memmove) and fills, at odd alignments so the word loops and byte tails both run. */
#include <stdio.h>
#include <string.h>

int main(void)
{
    char buf[64];
    strcpy(buf, "isekit");
    strcat(buf, " on rv32");
    printf("'%s' len %u\n", buf, (unsigned)strlen(buf));
    printf("strcmp: %d %d %d\n", strcmp("abc", "abd") < 0, strcmp("b", "a") > 0, strcmp("same", "same"));
    printf("strncmp: %d, strchr: %s, strrchr: %s\n", strncmp("abcdef", "abcxyz", 3),
           strchr(buf, 'r'), strrchr(buf, 'i'));
    printf("strstr: %s\n", strstr(buf, "on"));

    char mem[40];
    for (int i = 0; i < 40; i++) mem[i] = (char)('a' + i % 26);
    memmove(mem + 3, mem + 1, 20); /* overlap, forwards */
    printf("memmove up:   %.30s\n", mem);
    memmove(mem + 1, mem + 5, 20); /* overlap, backwards */
    printf("memmove down: %.30s\n", mem);
    memset(mem + 7, '#', 13);
    printf("memset:       %.30s\n", mem);
    char dst[33];
    memcpy(dst, mem + 1, 32);
    dst[32] = '\0';
    printf("memcpy:       %s\n", dst);
    printf("memcmp: %d %d\n", memcmp(dst, mem + 1, 32), memcmp("abc", "abd", 3) < 0);
    volatile size_t cap = 10; /* a variable: gcc would warn about the truncation we test */
    int n = snprintf(buf, cap, "%s-%d", "truncated", 12345);
    printf("snprintf: '%s' wanted %d\n", buf, n);
    return 0;
}
