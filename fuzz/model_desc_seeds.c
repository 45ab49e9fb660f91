/* Seed corpus for model_desc_fuzz: byte strings that describe models which load (checked by
 * the harness's menus; see model_desc_fuzz.c for the order the bytes are read in).
 * Usage: model_desc_seeds CORPUS_DIR */
#include <stdio.h>

/* An accelerator: 8-bit words, one slot, a 16-cell memory, one resource and the instruction
 * 0**ba101 running Swapped(b, a), then three launches. */
static const unsigned char accelerator[] = {
    1, 8, 1, 1,                 /* one storage declared, WORD_BITS(8), SLOTS(1) */
    1, 0, 16, 3, 0, 1, 0, 0,    /* one storage: MEMORY, 16 bits, 16 cells, "A", "Memory" */
    1, 0, 0,                    /* RESOURCE(1), no kinds */
    1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0,   /* one instruction */
    0x05, 0, 1, 0x25, 0, 2, 0x4d, 0, 3,      /* launches: word, word >> 8, clocks */
};
/* The same storage as a register file with named registers, two resources on one bit. */
static const unsigned char registers[] = {
    1, 8, 1, 2, 1, 2, 16, 3, 0, 4, 2, 1, 0, 0x10, 1, 2, 0, 7, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0x05, 0, 1,
};

static int write_seed(const char *dir, const char *name, const unsigned char *data, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/seed-model-%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return 1;
    fwrite(data, 1, n, f);
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    return write_seed(argv[1], "accelerator", accelerator, sizeof accelerator) ||
           write_seed(argv[1], "registers", registers, sizeof registers);
}
