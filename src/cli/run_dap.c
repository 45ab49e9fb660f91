/* The DAP server of a run (run_observe.h): not written yet. */
#include "cli/run_observe.h"
#include "cli/runctl.h"

bool cli_dap_option(cli_args *a, cli_run_opts *o)
{
    (void)a;
    (void)o;
    return false;
}

bool cli_dap_begin(cli_run *r, const cli_run_opts *o)
{
    (void)r;
    (void)o;
    return true;
}

void cli_dap_end(cli_run *r) { (void)r; }

isk_status cli_dap_go(cli_run *r, uint64_t clocks)
{
    (void)r;
    (void)clocks;
    return ISK_FAILED;
}
