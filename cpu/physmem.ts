/**
 * Physical memory of the emulated machine: one ArrayBuffer, shared by the CPU, the kernel and
 * the devices.
 *
 * Storage is word-native: the aligned 32-bit word at physical address A is `u32[A >>> 2]`, holding
 * the value the guest CPU sees, in host order. Aligned word loads and stores (the common case)
 * therefore need no byte swapping. A byte of a big-endian guest lives at byte index `A ^ 3` of
 * `u8` and a halfword at `(A ^ 2) >>> 1` of `u16` on a little-endian host; `bx`/`hx` hold those
 * XOR masks (0 for a little-endian guest). A 64-bit datum (MIPS FPU pair, SPARC ldd/std) is two
 * words in guest order.
 *
 * Only little-endian hosts are supported (every Node platform in practice); the constructor checks.
 *
 * Translated code: a CPU that caches translations of guest code marks the physical pages they came
 * from in `codePage` and sets `codeWriteHook`. Every write through the methods of this class to a
 * marked page calls the hook first (once per page touched), so the CPU can drop stale
 * translations. Code that writes the typed arrays directly (a CPU's own fast store path) must keep
 * marked pages out of that path itself.
 */
export type Endian = 'little' | 'big';

const HOST_LITTLE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export class PhysMem {
  readonly size: number;
  readonly u8: Uint8Array;
  readonly u16: Uint16Array;
  readonly u32: Int32Array;
  /** XOR applied to a byte address before indexing u8. */
  readonly bx: number;
  /** XOR applied to a halfword address before indexing u16 (after >>> 1). */
  readonly hx: number;
  /** One byte per 4 KiB page: nonzero while some CPU holds translated code from the page. */
  readonly codePage: Uint8Array;
  /** Called with the page number before a write through this class touches a marked page. */
  codeWriteHook: ((ppn: number) => void) | null = null;

  constructor(size: number, readonly endian: Endian) {
    if (!HOST_LITTLE) throw new Error('emu needs a little-endian host');
    if (size <= 0 || size % 4096 !== 0) throw new Error(`physical memory size ${size} is not a positive multiple of 4096`);
    this.size = size;
    const buf = new ArrayBuffer(size);
    this.u8 = new Uint8Array(buf);
    this.u16 = new Uint16Array(buf);
    this.u32 = new Int32Array(buf);
    this.bx = endian === 'big' ? 3 : 0;
    this.hx = endian === 'big' ? 2 : 0;
    this.codePage = new Uint8Array(size >>> 12);
  }

  /** Notifies the code-write hook of marked pages in [pa, pa + n). */
  private noteWrite(pa: number, n: number): void {
    const hook = this.codeWriteHook;
    if (hook === null || n <= 0) return;
    const last = (pa + n - 1) >>> 12;
    for (let p = pa >>> 12; p <= last; p++) if (this.codePage[p] !== 0) hook(p);
  }

  read8(pa: number): number {
    return this.u8[pa ^ this.bx]!;
  }
  write8(pa: number, v: number): void {
    if (this.codePage[pa >>> 12] !== 0) this.noteWrite(pa, 1);
    this.u8[pa ^ this.bx] = v;
  }
  /** pa must be 2-aligned. */
  read16(pa: number): number {
    return this.u16[(pa ^ this.hx) >>> 1]!;
  }
  write16(pa: number, v: number): void {
    if (this.codePage[pa >>> 12] !== 0) this.noteWrite(pa, 2);
    this.u16[(pa ^ this.hx) >>> 1] = v;
  }
  /** pa must be 4-aligned; returns the word as a signed 32-bit integer. */
  read32(pa: number): number {
    return this.u32[pa >>> 2]!;
  }
  write32(pa: number, v: number): void {
    if (this.codePage[pa >>> 12] !== 0) this.noteWrite(pa, 4);
    this.u32[pa >>> 2] = v;
  }

  /** Copies guest-order bytes (e.g. a file image) into physical memory at pa. */
  writeBytes(pa: number, bytes: Uint8Array): void {
    if (pa < 0 || pa + bytes.length > this.size) throw new RangeError(`physical range ${pa}+${bytes.length} out of memory`);
    this.noteWrite(pa, bytes.length);
    const bx = this.bx;
    if (bx === 0) {
      this.u8.set(bytes, pa);
      return;
    }
    for (let i = 0; i < bytes.length; i++) this.u8[(pa + i) ^ bx] = bytes[i]!;
  }

  /** Reads n guest-order bytes from physical memory at pa. */
  readBytes(pa: number, n: number): Uint8Array {
    if (pa < 0 || pa + n > this.size) throw new RangeError(`physical range ${pa}+${n} out of memory`);
    if (this.bx === 0) return this.u8.slice(pa, pa + n);
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.u8[(pa + i) ^ this.bx]!;
    return out;
  }

  /** Zero-fills [pa, pa + n). */
  zero(pa: number, n: number): void {
    this.noteWrite(pa, n);
    if (this.bx === 0 || ((pa | n) & 3) === 0) {
      this.u8.fill(0, pa, pa + n); // whole words: byte order does not matter
      return;
    }
    for (let i = 0; i < n; i++) this.u8[(pa + i) ^ this.bx] = 0;
  }
}
