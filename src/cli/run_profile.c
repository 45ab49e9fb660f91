/* The profile of a run (run_observe.h): not written yet. */
#include "cli/run_observe.h"
#include "cli/runctl.h"

bool cli_profile_option(cli_args *a, cli_run_opts *o)
{
    (void)a;
    (void)o;
    return false;
}

bool cli_profile_begin(cli_run *r, const cli_run_opts *o)
{
    (void)r;
    (void)o;
    return true;
}

void cli_profile_end(cli_run *r) { (void)r; }
