/*
 * ktest-sig: signal delivery on emu's kernel, checked by the program itself (an emu-only test:
 * it inspects the kernel's struct sigcontext, docs/abi.md "Signals").
 *
 * Groups (all by default, in this order):
 *   regs   every user register survives asynchronous signals: a child sends SIGUSR1 again and
 *          again while the parent spins in regs_spin (regs.S) with a pattern in every register,
 *          eight calls deep; the handler clobbers every caller-saved register, HI/LO or Y and
 *          icc, the FPU registers and rounding mode, and recurses deep enough to spill the
 *          interrupted windows (SPARC). sigreturn must restore everything, and the callers'
 *          frames (their register windows on SPARC) must be intact.
 *   codes  the handler's code and sigcontext for a bad store (MIPS TLBS/BadVAddr, SPARC
 *          data_access_exception) and an integer division by zero (MIPS Bp, SPARC
 *          division_by_zero).
 *   skip   a SIGSEGV handler moves the saved PC past the faulting load; execution continues
 *          after it with the load's target register unchanged.
 *   nest   a handler interrupted by another signal; sa_mask; SA_NODEFER; SA_RESETHAND.
 *
 * Output: one line per check, "<check>: ok" or "<check>: FAILED: <why>", then a summary. Exit
 * status 0 if every check passed.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern int regs_spin(volatile int *flag, int *save);
extern void regs_clobber(void);
extern const int regs_exit_value;

static int passed, failed;

static void check(const char *name, int ok, const char *why)
{
	if (ok) {
		printf("%s: ok\n", name);
		passed++;
	} else {
		printf("%s: FAILED: %s\n", name, why);
		failed++;
	}
	fflush(stdout);
}

typedef void (*handler3)(int, int, struct sigcontext *);

static int install(int sig, handler3 h, sigset_t mask, int flags)
{
	struct sigaction sa;

	sa.sa_handler = (sig_t)h;
	sa.sa_mask = mask;
	sa.sa_flags = flags;
	return sigaction(sig, &sa, NULL);
}

/* ---- regs ---- */

#define NSIG_WANTED 40
#define DEPTH 8

static volatile int spin_flag;
static volatile int delivered;
static int save[72] __attribute__((aligned(8)));

static int deep_clobber(int n)
{
	volatile int pad[8];
	int i;

	for (i = 0; i < 8; i++)
		pad[i] = n * i;
	if (n == 0) {
		regs_clobber();
		return pad[3];
	}
	return deep_clobber(n - 1) + pad[n & 7];
}

/* The FPU registers as the last delivery's signal frame holds them (register n in word n). */
static int frame_f[32];

static void on_spin_signal(int sig, int code, struct sigcontext *scp)
{
	int i;

	(void)sig;
	(void)code;
	for (i = 0; i < 32; i++)
#if defined(__mips__)
		frame_f[i] = scp->sc_fpregs[i];
#else
		frame_f[i] = scp->sc_f[i];
#endif
	deep_clobber(16);
	if (++delivered >= NSIG_WANTED)
		spin_flag = regs_exit_value;
}

/* Values live across the recursive call: kept in callee-saved registers (SPARC: the windows). */
static int deep(int n, int a, int b)
{
	int x = a * 3 + n, y = b ^ (n << 4), z = a + b + n, r;

	if (n == 0)
		r = regs_spin(&spin_flag, save);
	else
		r = deep(n - 1, x + 1, y - 1);
	return r + x * 7 + y * 11 + z * 13;
}

#if defined(__mips__)
#define PAT(n) (0x5a5a0000 + ((n) << 8) + (n))
static void expect_regs(char *why, size_t len)
{
	static const int gprs[] = { 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 28, 30, 31 };
	size_t i;

	why[0] = '\0';
	for (i = 0; i < sizeof gprs / sizeof gprs[0]; i++) {
		int n = gprs[i];
		if (save[n] != PAT(n)) {
			snprintf(why, len, "$%d is 0x%08x, not 0x%08x", n, (unsigned)save[n], (unsigned)PAT(n));
			return;
		}
	}
	if ((unsigned)save[32] != 0x48494849u || (unsigned)save[33] != 0x4c4f4c4fu) {
		snprintf(why, len, "HI/LO are 0x%08x/0x%08x", (unsigned)save[32], (unsigned)save[33]);
		return;
	}
	for (i = 0; i < 32; i++) {
		unsigned want = 0x3f800000u + (i << 12) + i;
		if ((unsigned)save[34 + i] != want) {
			snprintf(why, len, "$f%d is 0x%08x, not 0x%08x", (int)i, (unsigned)save[34 + i], want);
			return;
		}
	}
	if ((save[66] & 0x0003ffff) != 0x7f)
		snprintf(why, len, "FCSR is 0x%08x, not 0x7f", (unsigned)save[66]);
}
#elif defined(__sparc__)
#define PAT(n) (0x5a5a0000 + ((n) << 8) + (n))
static void expect_regs(char *why, size_t len)
{
	static const int regs[] = { 1, 2, 3, 4, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 19, 20, 21, 22, 23, 28, 29 };
	static const char *const names[] = { "%g", "%o", "%l", "%i" };
	size_t i;

	why[0] = '\0';
	for (i = 0; i < sizeof regs / sizeof regs[0]; i++) {
		int n = regs[i];
		if (save[n] != PAT(n)) {
			snprintf(why, len, "%s%d is 0x%08x, not 0x%08x", names[n / 8], n % 8, (unsigned)save[n], (unsigned)PAT(n));
			return;
		}
	}
	if ((unsigned)save[32] != 0x59595959u) {
		snprintf(why, len, "Y is 0x%08x", (unsigned)save[32]);
		return;
	}
	if (save[33] != 0xa) {
		snprintf(why, len, "icc is NZVC=%x, not a", save[33]);
		return;
	}
	for (i = 0; i < 32; i++) {
		unsigned want = 0x3f800000u + (i << 12) + i;
		if ((unsigned)save[34 + i] != want) {
			snprintf(why, len, "%%f%d is 0x%08x, not 0x%08x", (int)i, (unsigned)save[34 + i], want);
			return;
		}
	}
	if (((unsigned)save[66] & 0xc00003ffu) != 0xc00003e0u)
		snprintf(why, len, "FSR is 0x%08x", (unsigned)save[66]);
}
#endif

static void group_regs(void)
{
	char why[160];
	int ref, got, st, i;
	pid_t parent = getpid(), kid;

	/* Without signals: the reference value of the frames' checksum. */
	spin_flag = regs_exit_value;
	ref = deep(DEPTH, 12345, 678);
	expect_regs(why, sizeof why);
	check("registers hold their patterns without signals", why[0] == '\0', why);

	spin_flag = 0;
	delivered = 0;
	install(SIGUSR1, on_spin_signal, 0, SA_RESTART);
	if ((kid = fork()) == 0) {
		struct timespec ts = { 0, 3000000 };	/* 3 ms: the parent spins between signals */

		for (;;) {
			kill(parent, SIGUSR1);
			nanosleep(&ts, NULL);
		}
	}
	memset(save, 0, sizeof save);
	got = deep(DEPTH, 12345, 678);
	kill(kid, SIGKILL);
	waitpid(kid, &st, 0);
	signal(SIGUSR1, SIG_DFL);
	snprintf(why, sizeof why, "%d handlers ran", delivered);
	check("the handler ran for every signal, interrupting the spin", delivered >= NSIG_WANTED, why);
	expect_regs(why, sizeof why);
	check("sigreturn restored every register the handlers clobbered", why[0] == '\0', why);
	/* The last signal ended the spin, so it was delivered while the patterns were loaded. */
	why[0] = '\0';
	for (i = 0; i < 32; i++) {
		unsigned want = 0x3f800000u + (i << 12) + i;
		if ((unsigned)frame_f[i] != want) {
			snprintf(why, sizeof why, "word %d of the frame's FPU registers is 0x%08x, not 0x%08x", i, (unsigned)frame_f[i], want);
			break;
		}
	}
	check("the signal frame holds FPU register n in word n (sc_fpregs, sc_f)", why[0] == '\0', why);
	snprintf(why, sizeof why, "checksum 0x%x, 0x%x without signals", got, ref);
	check("the callers' frames survived (register windows on SPARC)", got == ref, why);
}

/* ---- codes ---- */

static sigjmp_buf jb;
static volatile int seen_code, seen_extra;

static void on_fault(int sig, int code, struct sigcontext *scp)
{
	(void)sig;
	seen_code = code;
#if defined(__mips__)
	seen_extra = scp ? scp->sc_badvaddr : -1;
#elif defined(__sparc__)
	seen_extra = scp ? scp->sc_tt : -1;
#endif
	siglongjmp(jb, 1);
}

#define BADSTORE "a bad store: the code and sigcontext name the fault (MIPS TLBS and BadVAddr, SPARC data_access_exception)"
#define DIVZERO "an integer division by zero: SIGFPE with the trap's code (MIPS Bp, SPARC division_by_zero)"

static void group_codes(void)
{
	char why[120];
	volatile int *bad = (volatile int *)0x00000ff0;
	volatile int zero = 0, r = 0;

	install(SIGSEGV, on_fault, 0, 0);
	install(SIGFPE, on_fault, 0, 0);
	seen_code = seen_extra = 0;
	if (sigsetjmp(jb, 1) == 0)
		*bad = 1;
#if defined(__mips__)
	snprintf(why, sizeof why, "code %d, BadVAddr 0x%x", seen_code, (unsigned)seen_extra);
	check(BADSTORE, seen_code == 3 && seen_extra == 0xff0, why);
#elif defined(__sparc__)
	snprintf(why, sizeof why, "code 0x%x, sc_tt 0x%x", seen_code, seen_extra);
	check(BADSTORE, seen_code == 0x09 && seen_extra == 0x09, why);
#endif
	seen_code = seen_extra = 0;
	if (sigsetjmp(jb, 1) == 0)
		r = 100 / zero;
	(void)r;
#if defined(__mips__)
	snprintf(why, sizeof why, "code %d", seen_code);
	check(DIVZERO, seen_code == 9, why);
#elif defined(__sparc__)
	snprintf(why, sizeof why, "code 0x%x, sc_tt 0x%x", seen_code, seen_extra);
	check(DIVZERO, seen_code == 0x2a && seen_extra == 0x2a, why);
#endif
	signal(SIGSEGV, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
}

/* ---- skip ---- */

static volatile int skips;

static void on_skip(int sig, int code, struct sigcontext *scp)
{
	(void)sig;
	(void)code;
	skips++;
#if defined(__mips__)
	scp->sc_pc += 4;
#elif defined(__sparc__)
	scp->sc_pc = scp->sc_npc;
	scp->sc_npc += 4;
#endif
}

static int faulting_load(volatile int *p)
{
	int v;
#if defined(__mips__)
	__asm__ volatile(".set push\n\t.set noreorder\n\tli %0, 1234\n\tlw %0, 0(%1)\n\tnop\n\t.set pop" : "=&r"(v) : "r"(p) : "memory");
#elif defined(__sparc__)
	__asm__ volatile("mov 1234, %0\n\tld [%1], %0\n\tnop" : "=&r"(v) : "r"(p) : "memory");
#endif
	return v;
}

static void group_skip(void)
{
	char why[80];
	int v, i, ok = 1;

	install(SIGSEGV, on_skip, 0, 0);
	for (i = 0; i < 3; i++) {
		v = faulting_load((volatile int *)0x10);
		if (v != 1234)
			ok = 0;
	}
	signal(SIGSEGV, SIG_DFL);
	snprintf(why, sizeof why, "%d handler runs, last value %d", skips, v);
	check("a handler that moves sc_pc past a faulting load resumes after it", ok && skips == 3, why);
}

/* ---- nest ---- */

static char trace[64];
static volatile int tlen;

static void add(char c)
{
	if (tlen < (int)sizeof trace - 1)
		trace[tlen++] = c;
	trace[tlen] = '\0';
}

static void on_usr2(int sig, int code, struct sigcontext *scp)
{
	(void)sig;
	(void)code;
	(void)scp;
	add('2');
}

static void on_usr1(int sig, int code, struct sigcontext *scp)
{
	(void)sig;
	(void)code;
	(void)scp;
	add('(');
	if (tlen < 3)
		kill(getpid(), SIGUSR2);
	add(')');
}

static volatile int resends;

/* Sends its own signal once, from inside the first run of the handler. */
static void on_again(int sig, int code, struct sigcontext *scp)
{
	(void)code;
	(void)scp;
	add('a');
	if (resends++ == 0)
		kill(getpid(), sig);
	add('b');
}

static void group_nest(void)
{
	char why[96];

	tlen = 0;
	install(SIGUSR1, on_usr1, 0, 0);
	install(SIGUSR2, on_usr2, 0, 0);
	kill(getpid(), SIGUSR1);
	snprintf(why, sizeof why, "trace %s", trace);
	check("a handler is interrupted by another signal", strcmp(trace, "(2)") == 0, why);

	tlen = 0;
	install(SIGUSR1, on_usr1, sigmask(SIGUSR2), 0);
	kill(getpid(), SIGUSR1);
	snprintf(why, sizeof why, "trace %s", trace);
	check("sa_mask holds the other signal until the handler returns", strcmp(trace, "()2") == 0, why);

	tlen = 0;
	resends = 0;
	install(SIGUSR1, on_again, 0, 0);
	kill(getpid(), SIGUSR1);
	snprintf(why, sizeof why, "trace %s", trace);
	check("a signal is blocked in its own handler", strcmp(trace, "abab") == 0, why);

	tlen = 0;
	resends = 0;
	install(SIGUSR1, on_again, 0, SA_NODEFER);
	kill(getpid(), SIGUSR1);
	snprintf(why, sizeof why, "trace %s", trace);
	check("SA_NODEFER lets it in at once", strcmp(trace, "aabb") == 0, why);

	tlen = 0;
	install(SIGUSR1, on_usr2, 0, SA_RESETHAND);
	kill(getpid(), SIGUSR1);
	{
		struct sigaction old;

		sigaction(SIGUSR1, NULL, &old);
		check("SA_RESETHAND restores the default action on delivery", strcmp(trace, "2") == 0 && old.sa_handler == SIG_DFL, trace);
	}
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*fn)(void); } groups[] = {
		{ "regs", group_regs }, { "codes", group_codes }, { "skip", group_skip }, { "nest", group_nest },
	};
	size_t i;
	int a;

	for (i = 0; i < sizeof groups / sizeof groups[0]; i++) {
		int run = argc == 1;

		for (a = 1; a < argc; a++)
			if (strcmp(argv[a], groups[i].name) == 0)
				run = 1;
		if (run)
			groups[i].fn();
	}
	printf("ktest-sig: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
