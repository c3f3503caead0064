/**
 * Character devices (4.4BSD cdevsw and the mem/cons drivers): /dev/console, /dev/stderr (the
 * console's error stream: the host's standard error), /dev/stdin and /dev/stdout (the host's
 * streams when they are not terminals), /dev/tty (the same terminal), /dev/null, /dev/zero.
 * Device numbers follow 4.4BSD (console 0/0, tty 1/0, mem major 2 with null = 2 and zero = 12;
 * the console's minors 1-3 are this system's). Other drivers (the tracing work's /dev/trbuf)
 * register with `Devices.register`.
 *
 * The console is a terminal to the guest (TIOCGETA succeeds) exactly where the host's stream
 * is one (Console.terminals): a program reading a pipe through `emu run` sees a pipe-like
 * standard input, as it would under qemu-user or natively. A console that does not say
 * (the tests' in-memory consoles) is a terminal on all three streams.
 */
import { _IOC, IOC_IN, IOC_OUT } from '../format/ioccom.js';
import { ENODEV, ENOTTY } from './errno.js';
import { FIONBIO, FIONREAD } from './filio.js';
import { FREAD, FWRITE, File, type FileDesc, type Uio } from './kern_descrip.js';
import type { Kernel } from './kernel.js';
import { major, makedev } from './param.js';
import type { KGen, Proc } from './proc.js';
import { VCHR, type Vnode } from './vfs.js';
import { vnops } from './vfs_vnops.js';
import { DTYPE_VNODE } from './kern_descrip.js';
import { COST } from './cost.js';

/** The host side of the console. */
export interface Console {
  /** Output from the guest, in order. */
  write(bytes: Uint8Array): void;
  /**
   * Output written through /dev/stderr (init's descriptor 2): the host's standard error. Without
   * it, that output goes to write() as well.
   */
  writeErr?(bytes: Uint8Array): void;
  /** Up to max bytes of input; an empty array means end of file. */
  read(max: number): Uint8Array;
  /** Which of the host's standard input, output and error are terminals; absent: all three. */
  terminals?: { stdin: boolean; stdout: boolean; stderr: boolean };
}

/** Minors of the console driver: the terminal, its error stream, and the plain host streams. */
export const CONS_TTY = 0;
export const CONS_STDERR = 1;
export const CONS_STDIN = 2;
export const CONS_STDOUT = 3;

export interface Cdevsw {
  name: string;
  open?(k: Kernel, p: Proc, minor: number, flags: number): number;
  close?(k: Kernel, minor: number): void;
  read(k: Kernel, p: Proc, minor: number, uio: Uio): KGen<number>;
  write(k: Kernel, p: Proc, minor: number, uio: Uio): KGen<number>;
  ioctl(k: Kernel, p: Proc, minor: number, cmd: number, data: DataView): number;
  /** select/poll readiness (FileOps.poll); without it the device is always ready. */
  poll?(k: Kernel, p: Proc, minor: number, events: number): number;
}

/** The terminal's ioctl requests (4.4BSD <sys/ttycom.h>; docs/abi.md "ioctl"). */
export const TERMIOS_SIZE = 44;
export const TIOCGETA = _IOC(IOC_OUT, 't', 19, TERMIOS_SIZE);
export const TIOCSETA = _IOC(IOC_IN, 't', 20, TERMIOS_SIZE);
export const TIOCSETAW = _IOC(IOC_IN, 't', 21, TERMIOS_SIZE);
export const TIOCSETAF = _IOC(IOC_IN, 't', 22, TERMIOS_SIZE);
export const TIOCSWINSZ = _IOC(IOC_IN, 't', 103, 8);
export const TIOCGWINSZ = _IOC(IOC_OUT, 't', 104, 8);
export const TIOCSPGRP = _IOC(IOC_IN, 't', 118, 4);
export const TIOCGPGRP = _IOC(IOC_OUT, 't', 119, 4);

/** The console terminal's settable state: termios bytes (guest order), window size, pgrp. */
class Tty {
  termios = new Uint8Array(TERMIOS_SIZE);
  winsize = new Uint8Array(8);
  pgrp = 1;
  constructor(le: boolean) {
    const dv = new DataView(this.termios.buffer);
    // c_iflag ICRNL|IXON, c_oflag OPOST|ONLCR, c_cflag CS8|CREAD, c_lflag ECHOE|ECHOK|ECHO|ISIG|ICANON|IEXTEN
    dv.setUint32(0, 0x00000100 | 0x00000200, le);
    dv.setUint32(4, 0x00000001 | 0x00000002, le);
    dv.setUint32(8, 0x00000300 | 0x00000800, le);
    dv.setUint32(12, 0x2 | 0x4 | 0x8 | 0x80 | 0x100 | 0x400, le);
    const cc: [number, number][] = [[0, 4], [1, 0xff], [3, 0x7f], [5, 21], [8, 3], [9, 28], [10, 26], [12, 17], [13, 19], [16, 1], [17, 0]];
    for (const [i, v] of cc) this.termios[16 + i] = v;
    dv.setInt32(36, 9600, le);
    dv.setInt32(40, 9600, le);
    const w = new DataView(this.winsize.buffer);
    w.setUint16(0, 24, le);
    w.setUint16(2, 80, le);
  }
}

function* nothing(): KGen<number> {
  return 0;
}

export class Devices {
  readonly cdevsw = new Map<number, Cdevsw>();
  private readonly nodes: [string, number][] = [];
  private readonly tty: Tty;

  constructor(readonly k: Kernel, readonly console: Console) {
    this.tty = new Tty(k.littleEndian);
    const cons = this.consDriver();
    this.register(0, cons, [['console', CONS_TTY], ['stderr', CONS_STDERR], ['stdin', CONS_STDIN], ['stdout', CONS_STDOUT]]);
    this.register(1, { ...cons, name: 'tty' }, [['tty', 0]]);
    this.register(2, this.memDriver(), [['null', 2], ['zero', 12]]);
  }

  /** Adds a driver and its /dev nodes (made at boot, or at once if already booted). */
  register(maj: number, sw: Cdevsw, nodes: [string, number][]): void {
    if (this.cdevsw.has(maj)) throw new Error(`cdevsw: major ${maj} already taken by ${this.cdevsw.get(maj)!.name}`);
    this.cdevsw.set(maj, sw);
    for (const [name, min] of nodes) this.nodes.push([name, makedev(maj, min)]);
  }

  /** Creates the /dev nodes in the filesystem. */
  makeNodes(): void {
    const dev = this.k.vfs.mkdirs('/dev');
    for (const [name, rdev] of this.nodes) {
      const old = dev.entries!.get(name);
      if (old) this.k.vfs.unlink(dev, name);
      const vp = this.k.vfs.create(dev, name, VCHR, 0o666);
      vp.rdev = rdev;
    }
  }

  /** True when the console minor is a terminal to the guest (TIOCGETA works on it). */
  isTerminal(minor: number): boolean {
    const t = this.console.terminals;
    if (minor === CONS_STDIN || minor === CONS_STDOUT) return false;
    if (!t) return true;
    return minor === CONS_STDERR ? t.stderr : t.stdin || t.stdout;
  }

  /** True for /dev/zero (mem minor 12), which mmap treats as anonymous memory. */
  isZero(vp: Vnode): boolean {
    return vp.rdev === makedev(2, 12);
  }

  sw(vp: Vnode): Cdevsw | undefined {
    return this.cdevsw.get(major(vp.rdev));
  }

  /**
   * Descriptors 0, 1 and 2 of init: /dev/console for reading and writing (0 and 1 share one open
   * file, as after 4.4BSD init's dup) when the host's standard input and output are terminals,
   * otherwise /dev/stdin and /dev/stdout for the one that is not; /dev/stderr for 2 (the console
   * minor that goes to the host's standard error).
   */
  openConsoleFds(p: Proc): number {
    const fd: FileDesc = p.p_fd;
    const t = this.console.terminals;
    const opens: [string, number[]][] = !t || (t.stdin && t.stdout)
      ? [['/dev/console', [0, 1]]]
      : [[t.stdin ? '/dev/console' : '/dev/stdin', [0]], [t.stdout ? '/dev/console' : '/dev/stdout', [1]]];
    opens.push(['/dev/stderr', [2]]);
    for (const [path, fds] of opens) {
      const r = this.k.vfs.namei(this.k.vfs.root, path, 0);
      if (r.error) return r.error;
      const vp = r.vp!;
      const fp = new File(DTYPE_VNODE, FREAD | FWRITE, vnops, vp);
      vp.usecount++;
      vp.v_writecount++;
      fp.f_count = fds.length;
      for (const i of fds) fd.install(i, fp);
    }
    return 0;
  }

  private consDriver(): Cdevsw {
    const devs = this;
    return {
      name: 'console',
      *read(k, _p, minor, uio): KGen<number> {
        if (uio.resid === 0) return 0;
        if (minor === CONS_STDERR || minor === CONS_STDOUT) return 0;
        const b = devs.console.read(Math.min(uio.resid, 4096));
        if (b.length === 0) return 0;
        k.charge(b.length * COST.copyPerByte);
        return uio.move(b, 0, b.length);
      },
      *write(k, _p, minor, uio): KGen<number> {
        const c = devs.console;
        while (uio.resid > 0) {
          const n = Math.min(uio.resid, 4096);
          const b = new Uint8Array(n);
          const e = uio.move(b, 0, n);
          if (e) return e;
          k.charge(n * COST.copyPerByte);
          if (minor === CONS_STDERR && c.writeErr) c.writeErr(b);
          else c.write(b);
        }
        return 0;
      },
      ioctl(k, _p, minor, cmd, data): number {
        const t = devs.tty;
        if (!devs.isTerminal(minor) && cmd !== FIONBIO && cmd !== FIONREAD) return ENOTTY;
        const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
        switch (cmd) {
          case TIOCGETA:
            bytes.set(t.termios);
            return 0;
          case TIOCSETA:
          case TIOCSETAW:
          case TIOCSETAF:
            t.termios.set(bytes.subarray(0, TERMIOS_SIZE));
            return 0;
          case TIOCGWINSZ:
            bytes.set(t.winsize);
            return 0;
          case TIOCSWINSZ:
            t.winsize.set(bytes.subarray(0, 8));
            return 0;
          case TIOCGPGRP:
            data.setInt32(0, t.pgrp, k.littleEndian);
            return 0;
          case TIOCSPGRP:
            t.pgrp = data.getInt32(0, k.littleEndian);
            return 0;
          case FIONBIO:
            return 0;
          case FIONREAD:
            data.setInt32(0, 0, k.littleEndian);
            return 0;
          default:
            return ENOTTY;
        }
      },
    };
  }

  private memDriver(): Cdevsw {
    return {
      name: 'mem',
      open(_k, _p, minor): number {
        return minor === 2 || minor === 12 ? 0 : ENODEV;
      },
      *read(k, _p, minor, uio): KGen<number> {
        if (minor === 2) return 0; // null: end of file
        const zeros = new Uint8Array(Math.min(uio.resid, 65536));
        while (uio.resid > 0) {
          const n = Math.min(uio.resid, zeros.length);
          k.charge(n * COST.copyPerByte);
          const e = uio.move(zeros, 0, n);
          if (e) return e;
        }
        return 0;
      },
      write(_k, _p, _minor, uio): KGen<number> {
        // null and zero discard what is written.
        uio.skip(uio.resid);
        return nothing();
      },
      ioctl(_k, _p, _minor, cmd): number {
        return cmd === FIONBIO ? 0 : cmd === FIONREAD ? 0 : ENOTTY;
      },
    };
  }
}

