/* archscope tune stencil: spatial blocking of a 2D 5-point stencil from the layer conditions. */
#include "cli/cli.h"
#include "cli/tune.h"

int tune_stencil_main(const struct tune_cli *o)
{
	(void)o;
	return error("tune stencil: not written yet"), EXIT_FAIL;
}
