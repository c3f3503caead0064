/**
 * Pipes (4.4BSD semantics; the implementation is a ring buffer rather than a socket pair):
 * PIPE_SIZE bytes of buffer, blocking reads and writes, writes of at most PIPE_BUF bytes are
 * atomic, end of file when the last writer has closed, SIGPIPE and EPIPE when the last reader has.
 */
import { COST } from './cost.js';
import { EAGAIN, ENOTTY, EPIPE } from './errno.js';
import { FIONBIO, FIONREAD } from './filio.js';
import { DTYPE_PIPE, FREAD, FWRITE, File, type FileOps, O_NONBLOCK, type StatInfo, type Uio } from './kern_descrip.js';
import { psignal } from './kern_sig.js';
import { wakeup } from './kern_synch.js';
import { tsleep } from './kern_tsleep.js';
import type { Kernel } from './kernel.js';
import { PCATCH, PSOCK } from './param.js';
import type { KGen, Proc } from './proc.js';
import { SIGPIPE } from './signal.js';
import { POLLHUP, POLLIN, POLLOUT, POLLRDNORM, POLLWRNORM, selwakeup } from './sys_select.js';
import { S_IFIFO } from './vfs.js';

export const PIPE_SIZE = 16384;
export const PIPE_BUF = 512;

export class Pipe {
  readonly buf = new Uint8Array(PIPE_SIZE);
  /** Read position and byte count of the ring. */
  head = 0;
  count = 0;
  readers = 1;
  writers = 1;
  /** Wait channels of readers and writers. */
  readonly rchan = {};
  readonly wchan = {};
  readonly ino: number;
  readonly ctime: { sec: number; nsec: number };
  constructor(k: Kernel) {
    this.ino = k.vfs.allocIno();
    this.ctime = k.timespec();
  }
}

function pipeStat(pipe: Pipe): StatInfo {
  return {
    dev: 0, ino: pipe.ino, mode: S_IFIFO | 0o600, nlink: 1, uid: 0, gid: 0, rdev: 0,
    atime: pipe.ctime, mtime: pipe.ctime, ctime: pipe.ctime, size: pipe.count, blksize: PIPE_SIZE,
  };
}

export const pipeops: FileOps = {
  *read(k: Kernel, _p: Proc, fp: File, uio: Uio): KGen<number> {
    const pipe = fp.f_data as Pipe;
    while (pipe.count === 0) {
      if (pipe.writers === 0) return 0; // end of file
      if (fp.f_flag & O_NONBLOCK) return EAGAIN;
      const e = yield* tsleep(k, pipe.rchan, PSOCK | PCATCH, 'piperd', 0);
      if (e) return e;
    }
    let error = 0;
    while (pipe.count > 0 && uio.resid > 0) {
      const n = Math.min(pipe.count, uio.resid, PIPE_SIZE - pipe.head);
      error = uio.move(pipe.buf, pipe.head, n);
      if (error) break;
      k.charge(n * COST.copyPerByte);
      pipe.head = (pipe.head + n) % PIPE_SIZE;
      pipe.count -= n;
    }
    if (pipe.count === 0) pipe.head = 0;
    wakeup(k, pipe.wchan);
    selwakeup(k);
    return error;
  },

  *write(k: Kernel, p: Proc, fp: File, uio: Uio): KGen<number> {
    const pipe = fp.f_data as Pipe;
    const atomic = uio.resid <= PIPE_BUF;
    while (uio.resid > 0) {
      if (pipe.readers === 0) {
        psignal(k, p, SIGPIPE);
        return EPIPE;
      }
      const space = PIPE_SIZE - pipe.count;
      if (space === 0 || (atomic && space < uio.resid)) {
        if (fp.f_flag & O_NONBLOCK) return EAGAIN;
        wakeup(k, pipe.rchan);
        const e = yield* tsleep(k, pipe.wchan, PSOCK | PCATCH, 'pipewr', 0);
        if (e) return e;
        continue;
      }
      const tail = (pipe.head + pipe.count) % PIPE_SIZE;
      const n = Math.min(space, uio.resid, PIPE_SIZE - tail);
      const e = uio.move(pipe.buf, tail, n);
      if (e) return e;
      k.charge(n * COST.copyPerByte);
      pipe.count += n;
      wakeup(k, pipe.rchan);
      selwakeup(k);
    }
    return 0;
  },

  ioctl(k: Kernel, _p: Proc, fp: File, cmd: number, data: DataView): number {
    const pipe = fp.f_data as Pipe;
    if (cmd === FIONREAD) {
      data.setInt32(0, pipe.count, k.littleEndian);
      return 0;
    }
    if (cmd === FIONBIO) return 0;
    return ENOTTY;
  },

  stat(_k: Kernel, fp: File): StatInfo {
    return pipeStat(fp.f_data as Pipe);
  },

  /**
   * The read end is ready with bytes in the buffer or no writer left (end of file, and POLLHUP);
   * the write end with room for PIPE_BUF bytes or no reader left (a write would fail at once).
   */
  poll(_k: Kernel, _p: Proc, fp: File, events: number): number {
    const pipe = fp.f_data as Pipe;
    let rev = 0;
    if (fp.f_flag & FREAD) {
      if (pipe.count > 0 || pipe.writers === 0) rev |= events & (POLLIN | POLLRDNORM);
      if (pipe.writers === 0) rev |= POLLHUP;
    }
    if (fp.f_flag & FWRITE) {
      if (pipe.readers === 0 || PIPE_SIZE - pipe.count >= PIPE_BUF) rev |= events & (POLLOUT | POLLWRNORM);
      if (pipe.readers === 0) rev |= POLLHUP;
    }
    return rev;
  },

  close(k: Kernel, fp: File): void {
    const pipe = fp.f_data as Pipe;
    if (fp.f_flag & FREAD) pipe.readers--;
    if (fp.f_flag & FWRITE) pipe.writers--;
    wakeup(k, pipe.rchan);
    wakeup(k, pipe.wchan);
    selwakeup(k);
  },
};

/** pipe(): the read end in rv[0], the write end in rv[1]. */
export function sys_pipe(k: Kernel, p: Proc, _a: Int32Array, rv: Int32Array): number {
  const fdp = p.p_fd;
  const rfd = fdp.alloc(0);
  if (rfd < 0) return -rfd;
  const pipe = new Pipe(k);
  const rf = new File(DTYPE_PIPE, FREAD, pipeops, pipe);
  fdp.install(rfd, rf);
  const wfd = fdp.alloc(0);
  if (wfd < 0) {
    fdp.ofiles[rfd] = null;
    if (rfd < fdp.freefile) fdp.freefile = rfd;
    return -wfd;
  }
  fdp.install(wfd, new File(DTYPE_PIPE, FWRITE, pipeops, pipe));
  rv[0] = rfd;
  rv[1] = wfd;
  return 0;
}
