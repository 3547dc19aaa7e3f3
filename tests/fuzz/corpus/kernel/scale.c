double a[N];
double b[N];
for (int i = 0; i < N; ++i)
	a[i] = 2.0 * b[i] + 1.0;
