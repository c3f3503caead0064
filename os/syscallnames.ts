/**
 * Names of the system-call numbers the kernel does not implement, for the message of an
 * unimplemented call (os/syscall.ts): 4.4BSD-Lite's kern/syscalls.master (numbers 0-205; the
 * 4.3BSD compatibility entries with their `o` prefix), then FreeBSD's for the numbers this ABI
 * takes from FreeBSD. The implemented calls are named by os/syscalls.master.
 */
const NAMES: Readonly<Record<number, string>> = {
  0: 'syscall', 8: 'ocreat', 11: 'execv', 14: 'mknod', 18: 'getfsstat', 19: 'olseek', 21: 'mount', 22: 'unmount',
  23: 'setuid', 26: 'ptrace', 27: 'recvmsg', 28: 'sendmsg', 29: 'recvfrom', 30: 'accept', 31: 'getpeername',
  32: 'getsockname', 34: 'chflags', 35: 'fchflags', 36: 'sync', 38: 'ostat', 40: 'olstat', 44: 'profil', 45: 'ktrace',
  49: 'getlogin', 50: 'setlogin', 51: 'acct', 53: 'sigaltstack', 55: 'reboot', 56: 'revoke', 61: 'chroot',
  62: 'ofstat', 63: 'ogetkerninfo', 64: 'ogetpagesize', 65: 'msync', 66: 'vfork', 67: 'vread', 68: 'vwrite',
  69: 'sbrk', 70: 'sstk', 71: 'ommap', 72: 'vadvise', 75: 'madvise', 76: 'vhangup', 77: 'vlimit', 78: 'mincore',
  79: 'getgroups', 80: 'setgroups', 84: 'owait', 85: 'swapon', 87: 'ogethostname', 88: 'osethostname',
  89: 'ogetdtablesize', 91: 'getdopt', 94: 'setdopt', 96: 'setpriority', 97: 'socket', 98: 'connect',
  99: 'oaccept', 100: 'getpriority', 101: 'osend', 102: 'orecv', 104: 'bind', 105: 'setsockopt', 106: 'listen',
  107: 'vtimes', 108: 'osigvec', 109: 'osigblock', 110: 'osigsetmask', 112: 'osigstack', 113: 'orecvmsg',
  114: 'osendmsg', 115: 'vtrace', 118: 'getsockopt', 119: 'resuba', 122: 'settimeofday', 125: 'orecvfrom',
  126: 'osetreuid', 127: 'osetregid', 129: 'otruncate', 130: 'oftruncate', 132: 'mkfifo', 133: 'sendto',
  134: 'shutdown', 135: 'socketpair', 139: 'sigreturn (4.2BSD)', 140: 'adjtime', 141: 'ogetpeername',
  142: 'ogethostid', 143: 'osethostid', 144: 'ogetrlimit', 145: 'osetrlimit', 146: 'okillpg', 147: 'setsid',
  148: 'quotactl', 149: 'oquota', 150: 'ogetsockname', 155: 'nfssvc', 156: 'ogetdirentries', 157: 'statfs',
  158: 'fstatfs', 161: 'getfh', 162: 'getdomainname', 163: 'setdomainname', 164: 'uname', 165: 'sysarch',
  169: 'semsys', 170: 'msgsys', 171: 'shmsys', 176: 'ntp_adjtime', 181: 'setgid', 182: 'setegid', 183: 'seteuid',
  184: 'lfs_bmapv', 185: 'lfs_markv', 186: 'lfs_segclean', 187: 'lfs_segwait', 191: 'pathconf', 192: 'fpathconf',
  194: 'getrlimit', 195: 'setrlimit', 198: '__syscall', 202: '__sysctl', 203: 'mlock', 204: 'munlock',
  205: 'undelete', 206: 'futimes', 207: 'getpgid', 220: '__semctl', 221: 'semget', 222: 'semop', 224: 'msgctl',
  225: 'msgget', 226: 'msgsnd', 227: 'msgrcv', 228: 'shmat', 229: 'shmctl', 230: 'shmdt', 231: 'shmget',
  232: 'clock_gettime', 233: 'clock_settime', 234: 'clock_getres', 250: 'minherit', 251: 'rfork',
  253: 'issetugid', 254: 'lchown', 272: 'getdents', 274: 'lchmod', 289: 'preadv', 290: 'pwritev', 310: 'getsid',
  326: '__getcwd',
};

/** The name of an unimplemented call number, or undefined for a number no BSD assigned. */
export function unimplementedName(code: number): string | undefined {
  return NAMES[code];
}
