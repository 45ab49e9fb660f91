/* rv06_mul8.psm in C: the 8x8->16 shift-and-add multiply, its four products stored low byte first
 * at scratchpad 00-07 (C's globals start at 00, so the scratchpad matches too). The registers the
 * original leaves (the last call's shifted multiplicand and multiplier copy) are the C routine's
 * last state, kept in globals and pinned with REGS (rv.h). */
#include "rv.h"

unsigned int product[4];               /* scratchpad 00-07 */
unsigned char m_low, m_high, m_bits;   /* mul8's last state: s0, s5, s4 of the original */

static unsigned int mul8(unsigned char a, unsigned char b)
{
    unsigned int p = 0, m = a;
    unsigned char n = 8;
    do {
        if (b & 1) p += m;
        b >>= 1;
        m <<= 1;
    } while (--n);
    m_low = m;
    m_high = m >> 8;
    m_bits = b;
    return p;
}

int main(void)
{
    product[0] = mul8(0xD7, 0xF3);
    product[1] = mul8(0xFF, 0xFF);
    product[2] = mul8(0x00, 0x9C);
    product[3] = mul8(0x12, 0x34);
    unsigned char p2 = product[3], p3 = product[3] >> 8;
    unsigned char s0 = m_low, s4 = m_bits, s5 = m_high;
    REGS(s0, 0x34, p2, p3, s4, s5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    FINISH(3);
    return 0;
}
