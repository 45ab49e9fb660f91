/* Soft float on an integer core: double arithmetic through libgcc and printf's %f/%e/%g
   (picolibc's default printf has them). Values chosen to be exact or well rounded. */
#include <stdio.h>

int main(void)
{
    volatile double a = 1.5, b = 0.25, c = 10.0;
    printf("%f %f %f %f\n", a + b, a - b, a * b, a / b);
    printf("%.3f %.10f %e %g %g\n", 0.1, 1.0 / 3.0, 12345.678, 0.0001, 1e20);
    printf("%8.2f|%-8.2f|%+.1f\n", 3.14159, -2.5, c);
    volatile int i = -7;
    volatile double d = i;
    printf("int->double %.1f, double->int %d, truncation %d\n", d, (int)(c / 3.0), (int)-2.9);
    volatile float f = 0.1f;
    printf("float %.9g, sum %.9g\n", (double)f, (double)(f + f + f));
    return 0;
}
