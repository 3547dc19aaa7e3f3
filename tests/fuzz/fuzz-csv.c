/* libFuzzer target for analyze's CSV reader: any bytes either fail with a message or give a
 * curve, which then goes through every analysis `archscope analyze -m` offers (monotone, first,
 * biggest and scaled step, QT clusters, levels). Built and run by tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/steps.h"
#include "report/csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	double *x = NULL, *y = NULL;
	size_t n = 0;
	struct as_error err = { 0 };
	int rc = csv_read_xy_stream(f, "fuzz.csv", &x, &y, &n, &err);
	fclose(f);
	if (rc != 0) {
		if (!err.msg[0])
			abort(); /* a failure must say why */
		return 0;
	}
	double *ym = malloc(n * sizeof(double));
	if (!ym)
		abort();
	steps_monotone(y, ym, n);
	steps_first(ym, n);
	steps_biggest_relative(ym, n);
	steps_biggest_scaled(ym, n);
	struct qt_cluster cl[64];
	int k = steps_qt_cluster(x, ym, n, 0.25, cl, 64);
	if (k > 64)
		abort();
	struct level lv[16];
	double final_min, final_last;
	if (steps_hierarchy(x, y, n, lv, 16, &final_min, &final_last) > 16)
		abort();
	free(ym);
	free(x);
	free(y);
	return 0;
}
