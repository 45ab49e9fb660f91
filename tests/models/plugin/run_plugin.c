/* `isekit run plugin_twice N`: the runner the plugin folder registers; launches "add N" twice
 * on its counter and prints the count, through the embedding API alone. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "isekit/sim.h"

static int run_twice(int argc, char **argv)
{
    if (argc != 2 || wants_help(argc, argv)) {
        fprintf(argc == 2 ? stdout : stderr, "usage: isekit run plugin_twice N (0 to 15)\n");
        return argc == 2 ? EXIT_OK : EXIT_USAGE;
    }
    int k = atoi(argv[1]) & 15;
    isk_model *m = isk_model_load("plugin", NULL);
    isk_system *sys = m ? isk_system_new(NULL) : NULL;
    isk_inst *acc = sys ? isk_system_add(sys, m, "counter") : NULL;
    int64_t count = -1;
    bool ok = acc && isk_attach(sys, acc, 0) == ISK_OK;
    for (int i = 0; ok && i < 2; i++) ok = isk_launch(sys, acc, 0x10u | (unsigned)k) == ISK_OK && isk_step(sys, 1) != ISK_FAILED;
    ok = ok && isk_run(sys, 10) == ISK_STOPPED && isk_read(acc, "COUNT", 0, &count) == ISK_OK;
    if (ok) printf("COUNT = %lld\n", (long long)count);
    isk_system_free(sys);
    isk_model_release(m);
    return ok ? EXIT_OK : EXIT_FAILED;
}

CLI_RUNNER(run_twice, "plugin_twice", "launches the plugin counter's add N twice (tests/models/plugin)");
