/**
 * POSIX ustar archives: the container of boot images (README "Image format").
 *
 * Contract: `writeTar` is deterministic — entries keep the caller's order, every header carries
 * mtime 0, uid/gid 0, owner and group "root", so the same entries give the same bytes.
 * `readTar` accepts exactly what `writeTar` produces plus ordinary ustar/GNU-free archives made by
 * other tools (regular files and directories; other types are reported as errors), and checks
 * every header checksum.
 */
import { quoted } from './errtext.js';

export interface TarEntry {
  /** Path inside the archive, '/'-separated, no leading '/'; directories end without '/'. */
  path: string;
  type: 'file' | 'dir';
  /** Permission bits (e.g. 0o755). */
  mode: number;
  /** File contents (absent for directories). */
  data?: Uint8Array;
}

const BLOCK = 512;

export class TarError extends Error {
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'TarError';
  }
}

function putString(h: Uint8Array, off: number, len: number, s: string): void {
  const b = Buffer.from(s, 'utf8');
  if (b.length > len) throw new Error(`tar: field too long: ${s}`);
  h.set(b, off);
}

function putOctal(h: Uint8Array, off: number, len: number, v: number): void {
  // len-1 octal digits, NUL terminated, as ustar requires.
  const s = v.toString(8).padStart(len - 1, '0');
  if (s.length > len - 1) throw new Error(`tar: value ${v} does not fit in ${len} bytes`);
  putString(h, off, len, s);
}

/** Splits a path into ustar name (≤100) and prefix (≤155) fields. */
function splitPath(path: string): [string, string] {
  if (Buffer.byteLength(path) <= 100) return [path, ''];
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name.length > 0) return [name, prefix];
  }
  throw new Error(`tar: path too long for ustar: ${path}`);
}

function header(e: TarEntry): Uint8Array {
  const h = new Uint8Array(BLOCK);
  const [name, prefix] = splitPath(e.type === 'dir' ? `${e.path}/` : e.path);
  putString(h, 0, 100, name);
  putOctal(h, 100, 8, e.mode & 0o7777);
  putOctal(h, 108, 8, 0);
  putOctal(h, 116, 8, 0);
  putOctal(h, 124, 12, e.type === 'file' ? (e.data?.length ?? 0) : 0);
  putOctal(h, 136, 12, 0);
  h.fill(0x20, 148, 156); // checksum is computed with its own field as spaces
  h[156] = e.type === 'dir' ? 0x35 /* '5' */ : 0x30 /* '0' */;
  putString(h, 257, 6, 'ustar');
  putString(h, 263, 2, '00');
  putString(h, 265, 32, 'root');
  putString(h, 297, 32, 'root');
  putString(h, 345, 155, prefix);
  let sum = 0;
  for (const b of h) sum += b;
  putString(h, 148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
  return h;
}

export function writeTar(entries: readonly TarEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (const e of entries) {
    const h = header(e);
    parts.push(h);
    size += BLOCK;
    if (e.type === 'file' && e.data && e.data.length > 0) {
      const padded = Math.ceil(e.data.length / BLOCK) * BLOCK;
      const body = new Uint8Array(padded);
      body.set(e.data);
      parts.push(body);
      size += padded;
    }
  }
  parts.push(new Uint8Array(2 * BLOCK)); // end-of-archive marker
  size += 2 * BLOCK;
  const out = new Uint8Array(size);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

function getString(b: Uint8Array, off: number, len: number): string {
  let end = off;
  while (end < off + len && b[end] !== 0) end++;
  return Buffer.from(b.subarray(off, end)).toString('utf8');
}

function getOctal(file: string, b: Uint8Array, off: number, len: number, what: string, at: number): number {
  const s = getString(b, off, len).trim();
  if (s === '') return 0;
  if (!/^[0-7]+$/.test(s)) throw new TarError(file, `bad ${what} field ${quoted(s)} in header at byte ${at}`);
  return parseInt(s, 8);
}

/** Parses a ustar archive; `file` names the archive in error messages. */
export function readTar(bytes: Uint8Array, file: string): TarEntry[] {
  const out: TarEntry[] = [];
  let off = 0;
  while (true) {
    if (off + BLOCK > bytes.length) throw new TarError(file, `truncated archive: header at byte ${off} runs past the end`);
    const h = bytes.subarray(off, off + BLOCK);
    if (h.every((x) => x === 0)) break;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
    const stored = getOctal(file, h, 148, 8, 'checksum', off);
    if (stored !== sum) throw new TarError(file, `header checksum mismatch at byte ${off} (stored ${stored}, computed ${sum})`);
    const magic = getString(h, 257, 6);
    if (magic !== 'ustar') throw new TarError(file, `not a ustar archive (magic ${quoted(magic)} at byte ${off + 257})`);
    const name = getString(h, 0, 100);
    const prefix = getString(h, 345, 155);
    let path = prefix ? `${prefix}/${name}` : name;
    const size = getOctal(file, h, 124, 12, 'size', off);
    const mode = getOctal(file, h, 100, 8, 'mode', off);
    const flag = String.fromCharCode(h[156]!);
    off += BLOCK;
    if (flag === '0' || flag === '\0') {
      if (off + size > bytes.length) throw new TarError(file, `truncated archive: ${quoted(path)} needs ${size} bytes at byte ${off}`);
      out.push({ path, type: 'file', mode, data: bytes.slice(off, off + size) });
      off += Math.ceil(size / BLOCK) * BLOCK;
    } else if (flag === '5') {
      path = path.replace(/\/+$/, '');
      out.push({ path, type: 'dir', mode });
    } else {
      throw new TarError(file, `unsupported entry type ${quoted(flag)} for ${quoted(path)}`);
    }
  }
  return out;
}
