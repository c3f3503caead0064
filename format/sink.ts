/**
 * Where a format's writer puts its bytes: a host file written synchronously (the machine is
 * synchronous: a run never waits on the host), or memory (tests, in-process runs).
 */
import { closeSync, openSync, writeSync } from 'node:fs';

export interface ByteSink {
  write(bytes: Uint8Array): void;
  close(): void;
}

/** A host file written with synchronous writes (the machine is synchronous). */
export class FileSink implements ByteSink {
  private readonly fd: number;
  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }
  write(bytes: Uint8Array): void {
    let off = 0;
    while (off < bytes.length) off += writeSync(this.fd, bytes, off, bytes.length - off);
  }
  close(): void {
    closeSync(this.fd);
  }
}

/** Collects everything in memory (tests). */
export class MemorySink implements ByteSink {
  private readonly chunks: Uint8Array[] = [];
  closed = false;
  write(bytes: Uint8Array): void {
    this.chunks.push(bytes.slice());
  }
  close(): void {
    this.closed = true;
  }
  bytes(): Uint8Array {
    return Buffer.concat(this.chunks);
  }
}
