/**
 * The store device the trace consumer writes to (/dev/store0, /dev/store1, ...): a modelled
 * sink with the latency and bandwidth of the manifest's `devices.store` — by default the 350 KB/s
 * at which mazieres-smith-1994 could forward, compress and store their traces — so that the cost
 * of storing a trace shows in virtual time (Figure 11's "traced time").
 *
 * A write is one request: it waits for the requests accepted before it (one at a time, in arrival
 * order), then takes latency + bytes / bandwidth; the writing process sleeps until it completes.
 * What is written goes, in order, to the host-side sink of the minor number (the trace bundle's
 * files). Reading gives end of file.
 */
import { COST } from './cost.js';
import type { Cdevsw } from './dev.js';
import { ENODEV, ENOTTY } from './errno.js';
import { wakeup } from './kern_synch.js';
import { tsleep } from './kern_tsleep.js';
import type { Kernel } from './kernel.js';
import { FIONBIO } from './filio.js';
import { PRIBIO } from './param.js';
import type { KGen } from './proc.js';

/** Character-device major number of the store (after /dev/trbuf's 20). */
export const STORE_MAJOR = 21;

export interface StoreModel {
  /** Virtual microseconds from request to first byte. */
  latency_us: number;
  /** Bytes per virtual second. */
  bandwidth: number;
}

/** The host side of one minor: receives the bytes in order. */
export interface StoreSink {
  write(bytes: Uint8Array): void;
}

export interface StoreStats {
  requests: number;
  bytes: number;
  /** Virtual cycles the device was busy. */
  busyCycles: number;
}

export class StoreDevice {
  private busyUntil = 0;
  readonly stats: StoreStats = { requests: 0, bytes: 0, busyCycles: 0 };
  readonly bytesPerMinor: number[];

  constructor(readonly k: Kernel, readonly model: StoreModel, readonly sinks: readonly StoreSink[]) {
    if (!(model.bandwidth > 0) || !(model.latency_us >= 0)) throw new Error(`store device: bad model ${JSON.stringify(model)}`);
    this.bytesPerMinor = sinks.map(() => 0);
  }

  /** Registers /dev/store0 .. /dev/store{n-1}; call before Kernel.boot. */
  static attach(k: Kernel, model: StoreModel, sinks: readonly StoreSink[]): StoreDevice {
    const d = new StoreDevice(k, model, sinks);
    k.devs.register(STORE_MAJOR, d.cdevsw(), sinks.map((_, i) => [`store${i}`, i] as [string, number]));
    return d;
  }

  private requestCycles(bytes: number): number {
    const lat = (this.model.latency_us * this.k.cpuHz) / 1e6;
    const xfer = (bytes * this.k.cpuHz) / this.model.bandwidth;
    return Math.max(1, this.k.clock.jitter(Math.ceil(lat + xfer)));
  }

  private cdevsw(): Cdevsw {
    const d = this;
    return {
      name: 'store',
      open(_k, _p, minor): number {
        return minor < d.sinks.length ? 0 : ENODEV;
      },
      *read(): KGen<number> {
        return 0;
      },
      *write(k, _p, minor, uio): KGen<number> {
        const n = uio.resid;
        if (n === 0) return 0;
        const b = new Uint8Array(n);
        const e = uio.move(b, 0, n);
        if (e) return e;
        k.charge(n * COST.copyPerByte);
        d.sinks[minor]!.write(b);
        d.bytesPerMinor[minor]! += n;
        d.stats.requests++;
        d.stats.bytes += n;
        const start = Math.max(k.clock.now, d.busyUntil);
        const dur = d.requestCycles(n);
        d.busyUntil = start + dur;
        d.stats.busyCycles += dur;
        const req = {};
        k.clock.schedule(d.busyUntil, () => wakeup(k, req), true);
        yield* tsleep(k, req, PRIBIO, 'store', 0);
        return 0;
      },
      ioctl(_k, _p, _minor, cmd): number {
        return cmd === FIONBIO ? 0 : ENOTTY;
      },
    };
  }
}
