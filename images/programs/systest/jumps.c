/*
 * systest: setjmp/longjmp (values, callee-saved registers, signal masks, out of a signal handler,
 * out of deep recursion: on SPARC that crosses spilled register windows).
 */
#include <setjmp.h>
#include <signal.h>
#include <unistd.h>
#include "systest.h"

static jmp_buf env;
static sigjmp_buf senv;
static volatile int depth_reached;

static void
dive(int depth, int val)
{
	volatile char pad[64];

	pad[0] = (char)depth;
	depth_reached = depth + pad[0] - depth;
	if (depth == 0)
		longjmp(env, val);
	dive(depth - 1, val);
}

static __attribute__((noinline)) int
work(int a, int b)
{
	return a * 3 + b;
}

static __attribute__((noinline)) int
verify(int seed, int a, int b, int c, int d, int e, int f, int g, int h, int i, int j, double x, double y)
{
	return a == work(seed, 1) && b == work(a, 2) && c == work(b, 3) && d == work(c, 4) &&
	    e == work(d, 5) && f == work(e, 6) && g == work(f, 7) && h == work(g, 8) &&
	    i == work(h, 9) && j == work(i, 10) && x == seed * 0.5 && y == x * 3.25 - 7.0;
}

/* Values live across setjmp in callee-saved registers, none modified after it. */
static int
registers_survive(int seed)
{
	int a = work(seed, 1), b = work(a, 2), c = work(b, 3), d = work(c, 4), e = work(d, 5);
	int f = work(e, 6), g = work(f, 7), h = work(g, 8), i = work(h, 9), j = work(i, 10);
	double x = seed * 0.5, y = x * 3.25 - 7.0;

	if (setjmp(env) == 0)
		dive(5, 1);
	return verify(seed, a, b, c, d, e, f, g, h, i, j, x, y);
}

static volatile sig_atomic_t caught;

static void
jump_out(int sig)
{
	caught++;
	siglongjmp(senv, sig);
}

void
t_jumps(void)
{
	volatile int n = 0, r;
	sigset_t set, cur;
	struct sigaction sa;

	outf("== setjmp\n");
	r = setjmp(env);
	if (r == 0) {
		n = 1;
		dive(3, 5);
	}
	check("longjmp from depth 3 returns its value", r == 5 && n == 1 && depth_reached == 0, 0);
	r = setjmp(env);
	if (r == 0)
		longjmp(env, 0);
	check("longjmp(env, 0) makes setjmp return 1", r == 1, 0);
	r = setjmp(env);
	if (r == 0)
		dive(40, 9);
	check("longjmp out of 40 frames", r == 9, 0);
	check("callee-saved registers survive longjmp", registers_survive(11) && registers_survive(-3), 0);

	/*
	 * sigsetjmp(env, 1) saves the mask and siglongjmp restores it; _setjmp/_longjmp leave it
	 * alone. (Whether plain setjmp saves it differs between systems: 4.4BSD's does, glibc's not.)
	 */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	if (sigsetjmp(senv, 1) == 0) {
		sigprocmask(SIG_BLOCK, &set, 0);
		siglongjmp(senv, 1);
	}
	sigprocmask(SIG_BLOCK, 0, &cur);
	check("siglongjmp restores the mask sigsetjmp(env, 1) saved", !sigismember(&cur, SIGUSR2), 0);
	if (_setjmp(env) == 0) {
		sigprocmask(SIG_BLOCK, &set, 0);
		_longjmp(env, 1);
	}
	sigprocmask(SIG_BLOCK, 0, &cur);
	check("_longjmp leaves the signal mask", sigismember(&cur, SIGUSR2) == 1, 0);
	sigprocmask(SIG_UNBLOCK, &set, 0);
	if (sigsetjmp(senv, 0) == 0) {
		sigprocmask(SIG_BLOCK, &set, 0);
		siglongjmp(senv, 1);
	}
	sigprocmask(SIG_BLOCK, 0, &cur);
	check("sigsetjmp(env, 0) does not restore the mask", sigismember(&cur, SIGUSR2) == 1, 0);
	sigprocmask(SIG_UNBLOCK, &set, 0);

	/* Out of a signal handler: the handler's blocking of the signal is undone by the mask restore. */
	sa.sa_handler = jump_out;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGUSR1, &sa, 0);
	caught = 0;
	r = sigsetjmp(senv, 1);
	if (r == 0)
		raise(SIGUSR1);
	check("siglongjmp out of a handler", r == SIGUSR1 && caught == 1, 0);
	sigprocmask(SIG_BLOCK, 0, &cur);
	check("the signal is unblocked after jumping out", !sigismember(&cur, SIGUSR1), 0);
	r = sigsetjmp(senv, 1);
	if (r == 0)
		raise(SIGUSR1);
	check("the handler runs and jumps again", r == SIGUSR1 && caught == 2, 0);
	signal(SIGUSR1, SIG_DFL);
}
