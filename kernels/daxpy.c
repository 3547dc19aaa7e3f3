double a[N];
double b[N];
double s;

for (int i = 0; i < N; ++i)
	a[i] = a[i] + s * b[i];
