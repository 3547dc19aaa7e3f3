double A[M][N];
double x[N];
double y[M];

for (int j = 0; j < M; ++j)
	for (int i = 0; i < N; ++i)
		y[j] = y[j] + A[j][i] * x[i];
