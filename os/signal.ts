/**
 * Signals of the guest ABI (4.4BSD-Lite sys/signal.h) and their default properties (kern_sig.c
 * sigprop). A signal set is a 32-bit mask; signal n is bit n-1 (sigmask(n)).
 */
export const SIGHUP = 1;
export const SIGINT = 2;
export const SIGQUIT = 3;
export const SIGILL = 4;
export const SIGTRAP = 5;
export const SIGABRT = 6;
export const SIGEMT = 7;
export const SIGFPE = 8;
export const SIGKILL = 9;
export const SIGBUS = 10;
export const SIGSEGV = 11;
export const SIGSYS = 12;
export const SIGPIPE = 13;
export const SIGALRM = 14;
export const SIGTERM = 15;
export const SIGURG = 16;
export const SIGSTOP = 17;
export const SIGTSTP = 18;
export const SIGCONT = 19;
export const SIGCHLD = 20;
export const SIGTTIN = 21;
export const SIGTTOU = 22;
export const SIGIO = 23;
export const SIGXCPU = 24;
export const SIGXFSZ = 25;
export const SIGVTALRM = 26;
export const SIGPROF = 27;
export const SIGWINCH = 28;
export const SIGINFO = 29;
export const SIGUSR1 = 30;
export const SIGUSR2 = 31;
export const NSIG = 32;

export const SIG_DFL = 0;
export const SIG_IGN = 1;
export const SIG_ERR = -1;

export const SA_ONSTACK = 0x0001;
export const SA_RESTART = 0x0002;
/** FreeBSD's values (docs/abi.md): reset to SIG_DFL on delivery; do not block the signal in its handler. */
export const SA_RESETHAND = 0x0004;
export const SA_NOCLDSTOP = 0x0008;
export const SA_NODEFER = 0x0010;

export const SIG_BLOCK = 1;
export const SIG_UNBLOCK = 2;
export const SIG_SETMASK = 3;

export const sigmask = (sig: number): number => (1 << (sig - 1)) >>> 0;

/** Default-action properties (4.4BSD kern_sig.c). */
export const SA_KILL = 0x01;
export const SA_CORE = 0x02;
export const SA_STOP = 0x04;
export const SA_TTYSTOP = 0x08;
export const SA_IGNORE = 0x10;
export const SA_CONT = 0x20;
export const SA_CANTMASK = 0x40;

export const sigprop: readonly number[] = [
  0, // unused
  SA_KILL, // SIGHUP
  SA_KILL, // SIGINT
  SA_KILL | SA_CORE, // SIGQUIT
  SA_KILL | SA_CORE, // SIGILL
  SA_KILL | SA_CORE, // SIGTRAP
  SA_KILL | SA_CORE, // SIGABRT
  SA_KILL | SA_CORE, // SIGEMT
  SA_KILL | SA_CORE, // SIGFPE
  SA_KILL, // SIGKILL
  SA_KILL | SA_CORE, // SIGBUS
  SA_KILL | SA_CORE, // SIGSEGV
  SA_KILL | SA_CORE, // SIGSYS
  SA_KILL, // SIGPIPE
  SA_KILL, // SIGALRM
  SA_KILL, // SIGTERM
  SA_IGNORE, // SIGURG
  SA_STOP, // SIGSTOP
  SA_STOP | SA_TTYSTOP, // SIGTSTP
  SA_IGNORE | SA_CONT, // SIGCONT
  SA_IGNORE, // SIGCHLD
  SA_STOP | SA_TTYSTOP, // SIGTTIN
  SA_STOP | SA_TTYSTOP, // SIGTTOU
  SA_IGNORE, // SIGIO
  SA_KILL, // SIGXCPU
  SA_KILL, // SIGXFSZ
  SA_KILL, // SIGVTALRM
  SA_KILL, // SIGPROF
  SA_IGNORE, // SIGWINCH
  SA_IGNORE, // SIGINFO
  SA_KILL, // SIGUSR1
  SA_KILL, // SIGUSR2
];

/** Signals that can be neither caught nor masked. */
export const sigcantmask = sigmask(SIGKILL) | sigmask(SIGSTOP);
export const stopsigmask = sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | sigmask(SIGTTOU);
export const contsigmask = sigmask(SIGCONT);

export const SIGNAMES: readonly string[] = [
  '', 'HUP', 'INT', 'QUIT', 'ILL', 'TRAP', 'ABRT', 'EMT', 'FPE', 'KILL', 'BUS', 'SEGV', 'SYS', 'PIPE', 'ALRM', 'TERM',
  'URG', 'STOP', 'TSTP', 'CONT', 'CHLD', 'TTIN', 'TTOU', 'IO', 'XCPU', 'XFSZ', 'VTALRM', 'PROF', 'WINCH', 'INFO', 'USR1', 'USR2',
];

/** Wait-status encoding (4.4BSD sys/wait.h). */
export const W_EXITCODE = (ret: number, sig: number): number => ((ret & 0xff) << 8) | sig;
export const W_STOPCODE = (sig: number): number => (sig << 8) | 0o177;
export const WCOREFLAG = 0o200;
export const WNOHANG = 1;
export const WUNTRACED = 2;
