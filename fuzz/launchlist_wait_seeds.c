/* Seed corpus for launchlist_wait_fuzz: menu picks (see its `line`) for a wait that never
 * holds, an interrupt awaited, a flag set then awaited, a launch in the far future and a
 * loop that outlives the limit. Usage: launchlist_wait_seeds CORPUS_DIR */
#include <stdio.h>

static const unsigned char seeds[][16] = {
    { 0 },                                   /* wait irq, with nothing running */
    { 1, 3, 9 },                             /* wait flag SHM[3] == 9 */
    { 5, 0, 3 },                             /* @1000000000000 clracc, wait idle */
    { 7, 4, 1, 1, 4, 1 },                    /* flag shm[4], 1; wait flag SHM[4] == 1 */
    { 9, 0xff, 0x0f, 4, 0x50, 0xc3 },        /* setloop 4095; conv; wait 50000 */
    { 6, 0x10, 0, 0, 13, 0 },                /* @16 mac; wait 1000000000000 */
};

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/seed-wait-%zu", argv[1], i);
        FILE *f = fopen(path, "wb");
        if (!f) return 1;
        fwrite(seeds[i], 1, sizeof seeds[i], f);
        if (fclose(f) != 0) return 1;
    }
    return 0;
}
