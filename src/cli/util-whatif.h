/* Shared by `whatif` and `stack --whatif`: the Coz plot of a causal profile. */
#ifndef ARCHSCOPE_CLI_UTIL_WHATIF_H
#define ARCHSCOPE_CLI_UTIL_WHATIF_H

#include "scale/whatif.h"

/* DIR/whatif.dat (one block per site: line speedup, program speedup, ci, in %) and the plot
 * (DIR/whatif.svg, .png, whatif.gp); notes on failure. crit: each curve's title carries the site's
 * critical-path share (beside the stack). */
void cli_whatif_plot(const char *dir, const struct whatif_result *r, int crit);

#endif
