// 3d-long-range.c with the loop 'j' blocked by hand, as archscope model -p Blocking advises for
// N=1015 M=130: NB blocks of B rows (j = 4 + B*jb + jj), so 4 + NB*B must be N - 4 (1007 = 53 x 19).
double U[M][N][N];
double V[M][N][N];
double ROC[M][N][N];
double c0, c1, c2, c3, c4, lap;

for (int jb = 0; jb < NB; jb++) {
for (int k = 4; k < M - 4; k++) {
	for (int jj = 0; jj < B; jj++) {
		for (int i = 4; i < N - 4; i++) {
			lap = c0 * V[k][jj + B * jb + 4][i]
			    + c1 * (V[k][jj + B * jb + 4][i + 1] + V[k][jj + B * jb + 4][i - 1])
			    + c1 * (V[k][jj + B * jb + 4 + 1][i] + V[k][jj + B * jb + 4 - 1][i])
			    + c1 * (V[k + 1][jj + B * jb + 4][i] + V[k - 1][jj + B * jb + 4][i])
			    + c2 * (V[k][jj + B * jb + 4][i + 2] + V[k][jj + B * jb + 4][i - 2])
			    + c2 * (V[k][jj + B * jb + 4 + 2][i] + V[k][jj + B * jb + 4 - 2][i])
			    + c2 * (V[k + 2][jj + B * jb + 4][i] + V[k - 2][jj + B * jb + 4][i])
			    + c3 * (V[k][jj + B * jb + 4][i + 3] + V[k][jj + B * jb + 4][i - 3])
			    + c3 * (V[k][jj + B * jb + 4 + 3][i] + V[k][jj + B * jb + 4 - 3][i])
			    + c3 * (V[k + 3][jj + B * jb + 4][i] + V[k - 3][jj + B * jb + 4][i])
			    + c4 * (V[k][jj + B * jb + 4][i + 4] + V[k][jj + B * jb + 4][i - 4])
			    + c4 * (V[k][jj + B * jb + 4 + 4][i] + V[k][jj + B * jb + 4 - 4][i])
			    + c4 * (V[k + 4][jj + B * jb + 4][i] + V[k - 4][jj + B * jb + 4][i]);
			U[k][jj + B * jb + 4][i] = 2.f * V[k][jj + B * jb + 4][i] - U[k][jj + B * jb + 4][i] + ROC[k][jj + B * jb + 4][i] * lap;
		}
	}
}
}
