/* Sign and zero extension of byte and halfword loads (lb/lbu/lh/lhu) and narrow stores
   (sb/sh) that must leave the neighbouring bytes alone; little-endian byte order. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    static volatile int8_t sc[4] = {-128, -1, 0, 127};
    static volatile uint8_t uc[4] = {0x80, 0xff, 0x00, 0x7f};
    static volatile int16_t ss[3] = {-32768, -1, 32767};
    static volatile uint16_t us[3] = {0x8000, 0xffff, 0x7fff};
    for (int i = 0; i < 4; i++)
        printf("char %d: signed %ld unsigned %lu\n", i, (long)sc[i], (unsigned long)uc[i]);
    for (int i = 0; i < 3; i++)
        printf("short %d: signed %ld unsigned %lu\n", i, (long)ss[i], (unsigned long)us[i]);

    static volatile uint32_t word = 0x11223344u;
    volatile uint8_t *b = (volatile uint8_t *)&word;
    printf("bytes of 0x11223344: %02x %02x %02x %02x\n", b[0], b[1], b[2], b[3]);
    b[1] = 0xaa;
    printf("after sb at +1: 0x%08lx\n", (unsigned long)word);
    volatile uint16_t *h = (volatile uint16_t *)&word;
    h[1] = 0xbeef;
    printf("after sh at +2: 0x%08lx\n", (unsigned long)word);
    volatile int8_t *sb = (volatile int8_t *)&word;
    volatile int16_t *sh = (volatile int16_t *)&word;
    printf("lb +3 = %ld, lh +2 = %ld, lbu +3 = %lu, lhu +2 = %lu\n", (long)sb[3], (long)sh[1],
           (unsigned long)b[3], (unsigned long)h[1]);
    return 0;
}
