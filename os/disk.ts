/**
 * The disk model and buffer cache (4.4BSD vfs_bio.c in spirit): file data lives in memory, but
 * a block of a file is either in the buffer cache or "on disk". Reading a block that is on disk
 * costs a disk request — latency plus size/bandwidth of virtual time from the manifest — during
 * which the reading process sleeps and others run. Written blocks are delayed writes: they stay
 * in the cache, and writing one back when it is evicted occupies the disk. Requests are served
 * one at a time in arrival order.
 */
import type { Kernel } from './kernel.js';
import { PRIBIO } from './param.js';
import type { KGen, Proc } from './proc.js';
import { wakeup } from './kern_synch.js';
import { tsleep } from './kern_tsleep.js';
import type { Vnode } from './vfs.js';

export const BLOCK_SIZE = 8192;
const BLOCK_KEY = 2 ** 21; // blocks per vnode in the cache key (16 GiB files)

export interface DiskModel {
  /** Virtual microseconds from request to first byte. */
  latency_us: number;
  /** Bytes per virtual second. */
  bandwidth: number;
}

export interface DiskStats {
  reads: number;
  writes: number;
  bytesRead: number;
  bytesWritten: number;
  hits: number;
  misses: number;
  busyCycles: number;
}

export class Disk {
  /** Cached blocks in LRU order (the Map's insertion order); value: dirty. */
  private readonly cache = new Map<number, boolean>();
  readonly nbuf: number;
  /** Virtual time at which the disk finishes the requests accepted so far. */
  private busyUntil = 0;
  readonly stats: DiskStats = { reads: 0, writes: 0, bytesRead: 0, bytesWritten: 0, hits: 0, misses: 0, busyCycles: 0 };

  constructor(readonly k: Kernel, readonly model: DiskModel) {
    // 10 % of physical memory for the cache, as 4.4BSD's bufpages default.
    this.nbuf = Math.max(16, Math.floor(k.md.mem.size / 10 / BLOCK_SIZE));
  }

  private requestCycles(bytes: number): number {
    const lat = (this.model.latency_us * this.k.cpuHz) / 1e6;
    const xfer = (bytes * this.k.cpuHz) / this.model.bandwidth;
    return Math.max(1, this.k.clock.jitter(Math.ceil(lat + xfer)));
  }

  /** Queues a request of `bytes`; returns the virtual time it completes. */
  private queue(bytes: number): number {
    const start = Math.max(this.k.clock.now, this.busyUntil);
    const dur = this.requestCycles(bytes);
    this.busyUntil = start + dur;
    this.stats.busyCycles += dur;
    return this.busyUntil;
  }

  private touch(key: number, dirty: boolean): void {
    const was = this.cache.get(key);
    this.cache.delete(key);
    this.cache.set(key, dirty || was === true);
    while (this.cache.size > this.nbuf) {
      const [old, d] = this.cache.entries().next().value as [number, boolean];
      this.cache.delete(old);
      if (d) {
        this.stats.writes++;
        this.stats.bytesWritten += BLOCK_SIZE;
        this.queue(BLOCK_SIZE); // write-behind occupies the disk; nobody waits for it
      }
    }
  }

  /**
   * Makes [off, off + len) of vp resident, sleeping for the disk when some block is not in the
   * cache. Called from the reading process's kernel thread.
   */
  *bread(p: Proc, vp: Vnode, off: number, len: number): KGen<void> {
    if (len <= 0) return;
    const first = Math.floor(off / BLOCK_SIZE);
    const last = Math.floor((off + len - 1) / BLOCK_SIZE);
    let missing = 0;
    for (let b = first; b <= last; b++) {
      const key = vp.ino * BLOCK_KEY + b;
      if (this.cache.has(key)) {
        this.stats.hits++;
      } else {
        this.stats.misses++;
        missing++;
      }
      this.touch(key, false);
    }
    if (missing === 0) return;
    const bytes = missing * BLOCK_SIZE;
    this.stats.reads++;
    this.stats.bytesRead += bytes;
    p.p_ru.inblock += missing;
    const done = this.queue(bytes);
    const req = {};
    this.k.clock.schedule(done, () => wakeup(this.k, req), true);
    yield* tsleep(this.k, req, PRIBIO, 'biord', 0);
  }

  /** Marks [off, off + len) of vp written (delayed write into the cache). */
  bwrite(p: Proc, vp: Vnode, off: number, len: number): void {
    if (len <= 0) return;
    const first = Math.floor(off / BLOCK_SIZE);
    const last = Math.floor((off + len - 1) / BLOCK_SIZE);
    for (let b = first; b <= last; b++) this.touch(vp.ino * BLOCK_KEY + b, true);
    p.p_ru.oublock += last - first + 1;
  }

  /**
   * fsync: writes every dirty cached block of vp to the disk and sleeps until the disk has
   * finished them (the blocks stay cached, clean).
   */
  *fsync(vp: Vnode): KGen<void> {
    const lo = vp.ino * BLOCK_KEY;
    const hi = (vp.ino + 1) * BLOCK_KEY;
    let n = 0;
    for (const [key, dirty] of this.cache) {
      if (key >= lo && key < hi && dirty) {
        this.cache.set(key, false);
        n++;
      }
    }
    if (n === 0) return;
    this.stats.writes++;
    this.stats.bytesWritten += n * BLOCK_SIZE;
    const done = this.queue(n * BLOCK_SIZE);
    const req = {};
    this.k.clock.schedule(done, () => wakeup(this.k, req), true);
    yield* tsleep(this.k, req, PRIBIO, 'fsync', 0);
  }

  /** Drops every cached block of vp beyond `size` bytes (truncation, or 0 when freed). */
  truncate(vp: Vnode, size: number): void {
    const keep = Math.ceil(size / BLOCK_SIZE);
    const lo = vp.ino * BLOCK_KEY + keep;
    const hi = (vp.ino + 1) * BLOCK_KEY;
    for (const key of [...this.cache.keys()]) if (key >= lo && key < hi) this.cache.delete(key);
  }
}
