/**
 * Tar archives: the container of boot images (docs/images.md).
 *
 * Contract: `writeTar` writes POSIX ustar and is deterministic — entries keep the caller's order,
 * every header carries mtime 0, uid/gid 0, owner and group "root", so the same entries give the
 * same bytes. `readTar` reads what `writeTar` produces and what other tools make with their
 * default settings: POSIX ustar, GNU tar's format (magic "ustar  ", long names and link names in
 * `././@LongLink` entries, base-256 sizes) and POSIX.1-2001 pax (extended headers `x` with `path`,
 * `linkpath` and `size`; global headers `g`). It yields regular files (a hard link is a copy of the
 * file it names), directories, and nothing else: symbolic links, devices, FIFOs and sparse files
 * are errors naming the entry. Paths lose a leading `./` and a trailing `/`; the archive's own
 * `.` entry is skipped. Every header checksum is checked.
 */

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

/** A numeric header field: octal digits (NUL or space terminated), or GNU base-256 (high bit set). */
function getNumber(file: string, b: Uint8Array, off: number, len: number, what: string, at: number): number {
  if (b[off]! & 0x80) {
    // GNU base-256: big-endian two's complement in the rest of the field, first byte's top bit a flag.
    let v = b[off]! & 0x3f;
    if (b[off]! & 0x40) throw new TarError(file, `negative ${what} field in header at byte ${at}`);
    for (let i = 1; i < len; i++) v = v * 256 + b[off + i]!;
    if (!Number.isSafeInteger(v)) throw new TarError(file, `${what} field too large in header at byte ${at}`);
    return v;
  }
  const s = getString(b, off, len).trim();
  if (s === '') return 0;
  if (!/^[0-7]+$/.test(s)) throw new TarError(file, `bad ${what} field '${s}' in header at byte ${at}`);
  return parseInt(s, 8);
}

/** The records of a pax extended header: "LEN KEY=VALUE\n" each, LEN counting the whole record. */
function paxRecords(file: string, data: Uint8Array, at: number): Map<string, string> {
  const m = new Map<string, string>();
  let off = 0;
  while (off < data.length) {
    let sp = off;
    while (sp < data.length && data[sp] !== 0x20) sp++;
    const len = Number(Buffer.from(data.subarray(off, sp)).toString('latin1'));
    if (!Number.isInteger(len) || len <= 0 || off + len > data.length || data[off + len - 1] !== 0x0a) {
      throw new TarError(file, `malformed pax extended header at byte ${at} (record at offset ${off})`);
    }
    const rec = Buffer.from(data.subarray(sp + 1, off + len - 1)).toString('utf8');
    const eq = rec.indexOf('=');
    if (eq <= 0) throw new TarError(file, `malformed pax extended header at byte ${at} (record '${rec}')`);
    m.set(rec.slice(0, eq), rec.slice(eq + 1));
    off += len;
  }
  return m;
}

/** './a/b/' -> 'a/b'; '.' and './' -> ''. */
function normalPath(p: string): string {
  while (p.startsWith('./')) p = p.slice(2);
  if (p === '.') return '';
  return p.replace(/\/+$/, '');
}

const TYPE_NAMES: Record<string, string> = {
  '2': 'a symbolic link', '3': 'a character device', '4': 'a block device', '6': 'a FIFO', 'S': 'a GNU sparse file',
  'D': 'a GNU dump directory', 'M': 'a GNU multi-volume continuation', 'V': 'a GNU volume label',
};

/** Parses a ustar, GNU or pax archive; `file` names the archive in error messages. */
export function readTar(bytes: Uint8Array, file: string): TarEntry[] {
  const out: TarEntry[] = [];
  const files = new Map<string, TarEntry>();
  // What a GNU long-name entry or a pax extended header says about the next entry.
  let longName: string | null = null;
  let longLink: string | null = null;
  let pax: Map<string, string> | null = null;
  let off = 0;
  while (true) {
    if (off + BLOCK > bytes.length) throw new TarError(file, `truncated archive: header at byte ${off} runs past the end`);
    const at = off;
    const h = bytes.subarray(off, off + BLOCK);
    if (h.every((x) => x === 0)) break;
    let sum = 0;
    let signed = 0;
    for (let i = 0; i < BLOCK; i++) {
      const x = i >= 148 && i < 156 ? 0x20 : h[i]!;
      sum += x;
      signed += x >= 0x80 ? x - 0x100 : x;
    }
    const stored = getNumber(file, h, 148, 8, 'checksum', at);
    // Some old tars summed signed bytes; both sums are accepted, as GNU tar does.
    if (stored !== sum && stored !== signed) throw new TarError(file, `header checksum mismatch at byte ${at} (stored ${stored}, computed ${sum})`);
    const magic = getString(h, 257, 6);
    const gnu = magic === 'ustar ' && h[263] === 0x20 && h[264] === 0;
    if (magic !== 'ustar' && !gnu) throw new TarError(file, `not a ustar, GNU or pax archive (magic '${magic}' at byte ${at + 257})`);
    const flag = String.fromCharCode(h[156]!);
    let size = getNumber(file, h, 124, 12, 'size', at);
    const paxSize = pax?.get('size');
    if (paxSize !== undefined && flag !== 'x' && flag !== 'g') {
      if (!/^\d+$/.test(paxSize)) throw new TarError(file, `bad pax size '${paxSize}' for the entry at byte ${at}`);
      size = Number(paxSize);
    }
    const dataAt = off + BLOCK;
    const hasData = flag === '0' || flag === '\0' || flag === '7' || flag === 'L' || flag === 'K' || flag === 'x' || flag === 'g';
    const dataLen = hasData ? size : 0;
    if (dataAt + dataLen > bytes.length) throw new TarError(file, `truncated archive: the entry at byte ${at} needs ${dataLen} bytes at byte ${dataAt}`);
    const data = bytes.subarray(dataAt, dataAt + dataLen);
    off = dataAt + Math.ceil(dataLen / BLOCK) * BLOCK;
    if (flag === 'L' || flag === 'K') {
      const s = getString(data, 0, data.length);
      if (flag === 'L') longName = s;
      else longLink = s;
      continue;
    }
    if (flag === 'x') {
      pax = paxRecords(file, data, at);
      continue;
    }
    if (flag === 'g') {
      paxRecords(file, data, at); // checked; global defaults (times, owners) mean nothing here
      continue;
    }
    const name = getString(h, 0, 100);
    const prefix = gnu ? '' : getString(h, 345, 155);
    const path = normalPath(pax?.get('path') ?? longName ?? (prefix ? `${prefix}/${name}` : name));
    const link = normalPath(pax?.get('linkpath') ?? longLink ?? getString(h, 157, 100));
    longName = longLink = null;
    pax = null;
    const mode = getNumber(file, h, 100, 8, 'mode', at) & 0o7777;
    if (flag === '5') {
      if (path !== '') out.push({ path, type: 'dir', mode });
    } else if (flag === '0' || flag === '\0' || flag === '7') {
      if (path === '') throw new TarError(file, `a file entry without a name at byte ${at}`);
      const e: TarEntry = { path, type: 'file', mode, data: data.slice() };
      out.push(e);
      files.set(path, e);
    } else if (flag === '1') {
      const target = files.get(link);
      if (!target) throw new TarError(file, `hard link '${path}' names '${link}', which is not an earlier file of the archive`);
      const e: TarEntry = { path, type: 'file', mode, data: target.data!.slice() };
      out.push(e);
      files.set(path, e);
    } else {
      const what = TYPE_NAMES[flag] ?? `an entry of unknown type '${flag}'`;
      throw new TarError(file, `'${path}' is ${what}${flag === '2' ? ` (-> '${link}')` : ''}: only regular files, hard links and directories are supported`);
    }
  }
  return out;
}
