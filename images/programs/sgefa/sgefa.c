/*
 * sgefa: LINPACK-style Gaussian elimination with partial pivoting (the sgefa/sgesl pair, here in
 * double precision) on a generated n x n matrix, with the residual check of the LINPACK benchmark.
 *
 *   sgefa [n [repeats]]        default n = 200, repeats = 1
 *
 * The matrix comes from the LINPACK benchmark's generator (a multiplicative congruential sequence
 * mod 2^16 scaled to [-2, 2)); the right-hand side is A * (1, ..., 1). Each repeat regenerates,
 * factors and solves; the last solution is checked: the normalised residual
 *   ||A x - b|| / (n ||A|| ||x|| eps)
 * must stay below 10 (it is of order 1 for a correct elimination).
 *
 * Floating-point output is identical on every IEEE 754 machine: only +, -, *, / and comparisons
 * are used, each in the order the C source gives (no library math, no fused multiply-add), and
 * numbers are printed by integer formatting here, not by printf's %f. The solution's checksum is
 * taken over the bit patterns of the doubles, so any difference in any rounding shows.
 *
 * Arrays are column-major as in the Fortran original: a[i + j * lda] is row i, column j.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double dabs(double x)
{
	return x < 0.0 ? -x : x;
}

/* ---- BLAS level 1, unit stride, unrolled like the LINPACK versions ---- */

/* dy += da * dx */
static void daxpy(int n, double da, const double *dx, double *dy)
{
	int i, m;
	if (n <= 0 || da == 0.0)
		return;
	m = n % 4;
	for (i = 0; i < m; i++)
		dy[i] = dy[i] + da * dx[i];
	for (i = m; i < n; i += 4) {
		dy[i] = dy[i] + da * dx[i];
		dy[i + 1] = dy[i + 1] + da * dx[i + 1];
		dy[i + 2] = dy[i + 2] + da * dx[i + 2];
		dy[i + 3] = dy[i + 3] + da * dx[i + 3];
	}
}

static double ddot(int n, const double *dx, const double *dy)
{
	double t = 0.0;
	int i, m;
	m = n % 5;
	for (i = 0; i < m; i++)
		t = t + dx[i] * dy[i];
	for (i = m; i < n; i += 5)
		t = t + dx[i] * dy[i] + dx[i + 1] * dy[i + 1] + dx[i + 2] * dy[i + 2]
		      + dx[i + 3] * dy[i + 3] + dx[i + 4] * dy[i + 4];
	return t;
}

static void dscal(int n, double da, double *dx)
{
	int i;
	for (i = 0; i < n; i++)
		dx[i] = da * dx[i];
}

/* Index of the element of largest magnitude (the first one on ties); -1 if n < 1. */
static int idamax(int n, const double *dx)
{
	double dmax;
	int i, k = 0;
	if (n < 1)
		return -1;
	dmax = dabs(dx[0]);
	for (i = 1; i < n; i++)
		if (dabs(dx[i]) > dmax) {
			k = i;
			dmax = dabs(dx[i]);
		}
	return k;
}

/* ---- LINPACK ---- */

/*
 * Factors a by Gaussian elimination with partial pivoting: on return a holds U and the
 * multipliers of L, ipvt the pivot rows. Returns 0, or k + 1 if U[k][k] == 0 (singular).
 */
static int dgefa(double *a, int lda, int n, int *ipvt)
{
	int info = 0, j, k, l;
	for (k = 0; k < n - 1; k++) {
		double *colk = &a[k * lda];
		double t;
		l = idamax(n - k, &colk[k]) + k;
		ipvt[k] = l;
		if (colk[l] == 0.0) {
			info = k + 1;
			continue;
		}
		if (l != k) {
			t = colk[l];
			colk[l] = colk[k];
			colk[k] = t;
		}
		t = -1.0 / colk[k];
		dscal(n - (k + 1), t, &colk[k + 1]);
		for (j = k + 1; j < n; j++) {
			double *colj = &a[j * lda];
			t = colj[l];
			if (l != k) {
				colj[l] = colj[k];
				colj[k] = t;
			}
			daxpy(n - (k + 1), t, &colk[k + 1], &colj[k + 1]);
		}
	}
	ipvt[n - 1] = n - 1;
	if (a[(n - 1) * lda + (n - 1)] == 0.0)
		info = n;
	return info;
}

/* Solves A x = b with the factors from dgefa; b is overwritten by x. */
static void dgesl(const double *a, int lda, int n, const int *ipvt, double *b)
{
	int k, l;
	double t;
	for (k = 0; k < n - 1; k++) {           /* L y = b */
		l = ipvt[k];
		t = b[l];
		if (l != k) {
			b[l] = b[k];
			b[k] = t;
		}
		daxpy(n - (k + 1), t, &a[k * lda + k + 1], &b[k + 1]);
	}
	for (k = n - 1; k >= 0; k--) {          /* U x = y */
		b[k] = b[k] / a[k * lda + k];
		t = -b[k];
		daxpy(k, t, &a[k * lda], &b[0]);
	}
}

/* Solves trans(A) x = b with the factors from dgefa; b is overwritten by x. */
static void dgesl_trans(const double *a, int lda, int n, const int *ipvt, double *b)
{
	int k, l;
	double t;
	for (k = 0; k < n; k++) {               /* trans(U) y = b */
		t = ddot(k, &a[k * lda], &b[0]);
		b[k] = (b[k] - t) / a[k * lda + k];
	}
	for (k = n - 2; k >= 0; k--) {          /* trans(L) x = y */
		b[k] = b[k] + ddot(n - (k + 1), &a[k * lda + k + 1], &b[k + 1]);
		l = ipvt[k];
		if (l != k) {
			t = b[l];
			b[l] = b[k];
			b[k] = t;
		}
	}
}

/* The LINPACK benchmark's matrix; returns max |a[i][j]|; b = A * ones. */
static double matgen(double *a, int lda, int n, double *b)
{
	int i, j, init = 1325;
	double norma = 0.0;
	for (j = 0; j < n; j++)
		for (i = 0; i < n; i++) {
			init = 3125 * init % 65536;
			a[j * lda + i] = (init - 32768.0) / 16384.0;
			if (a[j * lda + i] > norma)
				norma = a[j * lda + i];
		}
	for (i = 0; i < n; i++)
		b[i] = 0.0;
	for (j = 0; j < n; j++)
		for (i = 0; i < n; i++)
			b[i] = b[i] + a[j * lda + i];
	return norma;
}

/* Machine epsilon the LINPACK way: the gap between 4/3 and the next double, times |x|. */
static double epslon(double x)
{
	double a = 4.0e0 / 3.0e0, b, c, eps = 0.0;
	while (eps == 0.0) {
		b = a - 1.0;
		c = b + b + b;
		eps = dabs(c - 1.0);
	}
	return eps * dabs(x);
}

/* Prints x >= 0 with `places` decimals, rounding half up, without printf's %f. */
static void print_fixed(double x, int places)
{
	double scale = 1.0, r;
	unsigned long whole, frac, p10 = 1;
	int i;
	for (i = 0; i < places; i++) {
		scale = scale * 10.0;
		p10 *= 10;
	}
	r = x * scale + 0.5;
	if (r >= 4.0e9) {
		printf("(too large)");
		return;
	}
	whole = (unsigned long)r;
	frac = whole % p10;
	whole /= p10;
	printf("%lu.%0*lu", whole, places, frac);
}

/* Order-sensitive checksum of the IEEE 754 bit patterns of v[0..n). */
static unsigned int bits_checksum(const double *v, int n)
{
	unsigned int h = 2166136261u;
	int i, k;
	for (i = 0; i < n; i++) {
		unsigned long long u;
		memcpy(&u, &v[i], sizeof u);
		for (k = 0; k < 8; k++) {
			h = (h ^ (unsigned int)(u & 0xff)) * 16777619u;
			u >>= 8;
		}
	}
	return h;
}

/*
 * Prints the checks of one solve: r = residual vector (A x - b), x the solution. Returns 0 if the
 * normalised residual is below 10.
 */
static int report(const char *what, const double *r, const double *x, int n, double norma)
{
	double resid = 0.0, normx = 0.0, maxerr = 0.0, eps = epslon(1.0), residn;
	int i;
	for (i = 0; i < n; i++) {
		if (dabs(r[i]) > resid)
			resid = dabs(r[i]);
		if (dabs(x[i]) > normx)
			normx = dabs(x[i]);
		if (dabs(x[i] - 1.0) > maxerr)
			maxerr = dabs(x[i] - 1.0);
	}
	residn = resid / (n * norma * normx * eps);
	printf("%s: normalised residual ", what);
	print_fixed(residn, 4);
	printf(", max |x[i] - 1| ");
	print_fixed(maxerr / eps, 2);
	printf(" eps, x[0] - 1 %s", x[0] - 1.0 < 0.0 ? "-" : "");
	print_fixed(dabs(x[0] - 1.0) / eps, 2);
	printf(" eps, x[n-1] - 1 %s", x[n - 1] - 1.0 < 0.0 ? "-" : "");
	print_fixed(dabs(x[n - 1] - 1.0) / eps, 2);
	printf(" eps, checksum %08x\n", bits_checksum(x, n));
	if (!(residn < 10.0)) {
		printf("%s: FAILED, residual too large\n", what);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n = 200, repeats = 1, lda, r, i, j, info = 0, status;
	double *a0, *a, *b, *x, *res, norma;
	int *ipvt;
	char *end;
	if (argc > 3) {
		fprintf(stderr, "usage: sgefa [n [repeats]]\n");
		return 2;
	}
	if (argc > 1) {
		n = (int)strtol(argv[1], &end, 10);
		if (*end || n < 2 || n > 2000) {
			fprintf(stderr, "sgefa: n must be 2..2000\n");
			return 2;
		}
	}
	if (argc > 2) {
		repeats = (int)strtol(argv[2], &end, 10);
		if (*end || repeats < 1) {
			fprintf(stderr, "sgefa: repeats must be a positive number\n");
			return 2;
		}
	}
	lda = n + 1;                    /* an odd leading dimension, as the benchmark used */
	a0 = malloc(sizeof *a0 * (size_t)lda * (size_t)n);
	a = malloc(sizeof *a * (size_t)lda * (size_t)n);
	b = malloc(sizeof *b * (size_t)n);
	x = malloc(sizeof *x * (size_t)n);
	res = malloc(sizeof *res * (size_t)n);
	ipvt = malloc(sizeof *ipvt * (size_t)n);
	if (!a0 || !a || !b || !x || !res || !ipvt) {
		fprintf(stderr, "sgefa: out of memory\n");
		return 1;
	}
	printf("n %d, repeats %d\n", n, repeats);
	for (r = 0; r < repeats; r++) {
		norma = matgen(a, lda, n, b);
		info = dgefa(a, lda, n, ipvt);
		if (info != 0) {
			printf("sgefa: matrix is singular (info %d)\n", info);
			return 1;
		}
		dgesl(a, lda, n, ipvt, b);
	}
	for (i = 0; i < n; i++)
		x[i] = b[i];

	/* A x = b: residual A x - b with A and b regenerated */
	norma = matgen(a0, lda, n, b);
	for (i = 0; i < n; i++)
		res[i] = -b[i];
	for (j = 0; j < n; j++)
		daxpy(n, x[j], &a0[j * lda], res);
	status = report("A x = b", res, x, n, norma);

	/* trans(A) y = c with c = trans(A) * ones, from the same factors */
	for (j = 0; j < n; j++) {
		double t = 0.0;
		for (i = 0; i < n; i++)
			t = t + a0[j * lda + i];
		b[j] = t;
	}
	for (j = 0; j < n; j++)
		x[j] = b[j];
	dgesl_trans(a, lda, n, ipvt, x);
	for (j = 0; j < n; j++)
		res[j] = ddot(n, &a0[j * lda], x) - b[j];
	status |= report("trans(A) y = c", res, x, n, norma);
	if (status == 0)
		printf("residual checks passed\n");
	return status;
}
