/* A 2D box stencil with flattened indices (a[j*N+i]) and single precision. */
float a[M * N];
float b[M * N];
float w;

for (int j = 1; j < M - 1; ++j)
	for (int i = 1; i < N - 1; ++i)
		b[j * N + i] = w * (a[(j - 1) * N + i - 1] + a[(j - 1) * N + i] + a[(j - 1) * N + i + 1]
				  + a[j * N + i - 1] + a[j * N + i] + a[j * N + i + 1]
				  + a[(j + 1) * N + i - 1] + a[(j + 1) * N + i] + a[(j + 1) * N + i + 1]);
