/* Seed corpus for ipu_state_fuzz: vertex-state descriptions with every section and field kind.
 * Usage: ipu_state_seeds CORPUS_DIR */
#include "text_seeds.h"

/* The first byte of each seed is a space, which the harness reads as text like the rest. */
static const char *const seeds[] = {
    " vertex = \"__runCodelet_X\"\nkind = \"MultiVertex\"\nchip = \"ipu1\"\nstack = 1024\n"
    "[tensor.a]\ntype = \"f16\"\nvalues = [1.5, -2, 0x10, inf, nan, 1e-8]\nregion = 0\nalign = 16\n"
    "[tensor.b]\ntype = \"u8\"\nsize = 3\nelement = 2\noutput = \"b.npy\"\n"
    "[tensor.c]\ntype = \"i32\"\nfile = \"c.csv\"\naddress = 0x90000\n"
    "[[field]]\nkind = \"one_ptr\"\ntensor = \"a\"\n[[field]]\nkind = \"span\"\ntensor = \"b\"\ncount = 2\n"
    "[[field]]\nkind = \"short_span\"\ntensor = \"c\"\n[[field]]\nkind = \"vector\"\nof = \"span\"\n"
    "counted = false\ntensors = [\"a\", \"b\",\n  \"c\", # three\n]\n",
    " kind = 'SupervisorVertex'  # a comment\n[[field]]\nkind = \"f32\"\nvalues = [1, 2.5e3, -0.0]\n"
    "[[field]]\nkind = \"i16\"\nvalue = -32768\n[[field]]\nkind = \"scaled_ptr32\"\ntensor = \"t\"\n"
    "[tensor.t]\ntype = \"bool\"\nvalues = [true, false, 1]\n",
    " [tensor.\"quoted name\"]\ntype = \"u32\"\nsize = 4\nvalues = 7\n[[field]]\nkind = \"scaled_ptr64\"\n"
    "tensor = \"quoted name\"\n[runner]\nx = \"a\\tb\\\"\"\n",
};

TEXT_SEEDS_MAIN("toml", seeds)
