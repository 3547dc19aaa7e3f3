double a[M][N];
for (int j = 1; j < M - 1; ++j)
	for (int i = 1; i < N - 1; ++i)
		a[j][i] = a[j - 1][i] + a[j + 1][i];
