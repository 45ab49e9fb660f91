/* A small data workload: CRC-32 of the standard check string, a sieve of Eratosthenes and an
   integer matrix product, on static arrays and a struct. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t crc32(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    while (n--) {
        c ^= *p++;
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & -(c & 1));
    }
    return ~c;
}

struct matrix { int rows, cols; int32_t v[6][6]; };

int main(void)
{
    const char *check = "123456789";
    printf("crc32(\"%s\") = 0x%08lx\n", check, (unsigned long)crc32((const uint8_t *)check, strlen(check)));

    static uint8_t composite[1001];
    unsigned count = 0, last = 0;
    for (unsigned i = 2; i <= 1000; i++) {
        if (composite[i]) continue;
        count++;
        last = i;
        for (unsigned j = i * i; j <= 1000; j += i) composite[j] = 1;
    }
    printf("primes <= 1000: %u, largest %u\n", count, last);

    static struct matrix a = {6, 6, {{0}}}, b = {6, 6, {{0}}}, c = {6, 6, {{0}}};
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            a.v[i][j] = i - j;
            b.v[i][j] = (i + 1) * (j + 2);
        }
    for (int i = 0; i < a.rows; i++)
        for (int j = 0; j < b.cols; j++) {
            int32_t s = 0;
            for (int k = 0; k < a.cols; k++) s += a.v[i][k] * b.v[k][j];
            c.v[i][j] = s;
        }
    for (int i = 0; i < 6; i++) {
        for (int j = 0; j < 6; j++) printf("%5ld", (long)c.v[i][j]);
        printf("\n");
    }
    return 0;
}
