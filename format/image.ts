/**
 * Boot image format (docs/images.md): a tar archive holding `manifest.json` (written first) and
 * the guest's filesystem tree under `root/` (`root/sbin/init`, `root/etc/rc`, `root/bin/...`);
 * written as ustar, read also from GNU tar and pax archives (format/tar.ts). This module defines the manifest, validates it, and reads and
 * writes whole images.
 *
 * Contract: `readImage` either returns a complete, validated image or throws an ImageError naming
 * the file and the first problem; nothing is defaulted silently except the fields documented as
 * optional below.
 */
import { readFileSync } from 'node:fs';
import { readTar, writeTar, type TarEntry } from './tar.js';
import { TARGET_NAMES, type TargetName } from './target.js';

export const IMAGE_FORMAT = 'emu-image';
export const IMAGE_VERSION = 1;

export interface DeviceModel {
  /** Time from request to first byte, in virtual microseconds. */
  latency_us: number;
  /** Sustained transfer rate in bytes per virtual second. */
  bandwidth: number;
}

export interface ImageManifest {
  format: typeof IMAGE_FORMAT;
  version: typeof IMAGE_VERSION;
  name: string;
  description: string;
  /** Target machine: R2000 little- or big-endian, or SPARC v8. */
  arch: TargetName;
  /** Physical memory in bytes (multiple of 4096). */
  memory: number;
  clock: {
    /** Timer interrupts per virtual second (4.4BSD hz). */
    hz: number;
    /** Virtual CPU cycles per second (one instruction = one cycle by default). */
    cpu_hz: number;
    /** Round-robin time slice in virtual milliseconds (4.4BSD roundrobin: 100 ms). */
    quantum_ms: number;
  };
  devices: {
    disk: DeviceModel;
    /** The store device the trace consumer writes to (mazieres-smith-1994: 350 KB/s). */
    store: DeviceModel;
  };
  /** Bytes of the shared trace buffer (/dev/trbuf), mapped just below 0x20000000. */
  trbuf_size: number;
  /** Guest paths of the executables that `emu run --trace` instruments. */
  traced: string[];
  /** argv of the first process; argv[0] is its path in the guest filesystem. */
  init: string[];
  /** Environment of the first process. */
  env: string[];
  /** The command line the run executes (the text of /etc/rc, which init runs with /bin/sh). */
  command: string;
}

export interface ImageFile {
  mode: number;
  data: Uint8Array;
}

export interface BootImage {
  manifest: ImageManifest;
  /** Guest path ('/bin/sh') -> file. */
  files: Map<string, ImageFile>;
  /** Guest directories ('/bin'), including '/'. */
  dirs: Map<string, { mode: number }>;
}

export class ImageError extends Error {
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'ImageError';
  }
}

/** Defaults for the machine fields, used by the image specs (images/specs.ts). */
export const MACHINE_DEFAULTS = {
  memory: 64 * 1024 * 1024,
  clock: { hz: 100, cpu_hz: 25_000_000, quantum_ms: 100 },
  devices: {
    disk: { latency_us: 10_000, bandwidth: 2_000_000 },
    store: { latency_us: 0, bandwidth: 350_000 },
  },
  trbuf_size: 1024 * 1024,
  env: ['PATH=/bin:/usr/bin', 'HOME=/'],
} as const;

/**
 * The account files of every guest system: /etc/passwd and /etc/group (4.4BSD's formats without
 * the shadow fields; docs/images.md). Boot images hold them, and `emu run PROG` installs them in
 * its minimal filesystem, so getpwnam and getgrgid work in both.
 */
export const BASE_ETC_FILES: readonly { path: string; text: string }[] = [
  {
    path: '/etc/passwd',
    text: [
      'root:*:0:0:Charlie &:/root:/bin/sh',
      'daemon:*:1:1:The devil himself:/:/sbin/nologin',
      'bin:*:3:7:Binaries Commands and Source:/:/sbin/nologin',
      'user:*:100:100:A user:/home/user:/bin/sh',
      'nobody:*:32767:32767:Unprivileged user:/nonexistent:/sbin/nologin',
      '',
    ].join('\n'),
  },
  {
    path: '/etc/group',
    text: ['wheel:*:0:root', 'daemon:*:1:daemon', 'tty:*:4:root', 'bin:*:7:', 'users:*:100:user', 'nobody:*:32767:', ''].join('\n'),
  },
];

function isPosInt(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x > 0;
}

function isStringArray(x: unknown): x is string[] {
  return Array.isArray(x) && x.every((s) => typeof s === 'string');
}

/** Validates a parsed manifest; throws ImageError naming `file` and the field. */
export function validateManifest(j: unknown, file: string): ImageManifest {
  const bad = (m: string): never => {
    throw new ImageError(file, `manifest.json: ${m}`);
  };
  if (typeof j !== 'object' || j === null) bad('not a JSON object');
  const m = j as Record<string, unknown>;
  if (m['format'] !== IMAGE_FORMAT) bad(`"format" must be "${IMAGE_FORMAT}"`);
  if (m['version'] !== IMAGE_VERSION) bad(`unsupported "version" ${String(m['version'])} (this emu reads version ${IMAGE_VERSION})`);
  if (typeof m['name'] !== 'string' || m['name'] === '') bad('"name" must be a non-empty string');
  if (typeof m['description'] !== 'string') bad('"description" must be a string');
  if (!TARGET_NAMES.includes(m['arch'] as TargetName)) bad(`"arch" must be one of ${TARGET_NAMES.join(', ')}`);
  if (!isPosInt(m['memory']) || (m['memory'] as number) % 4096 !== 0) bad('"memory" must be a positive multiple of 4096');
  const c = m['clock'] as Record<string, unknown> | undefined;
  if (!c || !isPosInt(c['hz']) || !isPosInt(c['cpu_hz']) || !isPosInt(c['quantum_ms'])) bad('"clock" needs positive integers hz, cpu_hz, quantum_ms');
  const d = m['devices'] as Record<string, Record<string, unknown>> | undefined;
  for (const dev of ['disk', 'store']) {
    const x = d?.[dev];
    if (!x || typeof x['latency_us'] !== 'number' || x['latency_us'] < 0 || !isPosInt(x['bandwidth'])) bad(`"devices.${dev}" needs latency_us >= 0 and a positive bandwidth`);
  }
  if (!isPosInt(m['trbuf_size']) || (m['trbuf_size'] as number) % 4096 !== 0) bad('"trbuf_size" must be a positive multiple of 4096');
  if (!isStringArray(m['traced'])) bad('"traced" must be an array of guest paths');
  if (!isStringArray(m['init']) || (m['init'] as string[]).length === 0) bad('"init" must be a non-empty argv array');
  if (!isStringArray(m['env'])) bad('"env" must be an array of NAME=value strings');
  if (typeof m['command'] !== 'string') bad('"command" must be a string');
  return m as unknown as ImageManifest;
}

/** Canonical JSON of a manifest (fixed key order, 2-space indent, trailing newline). */
export function manifestJson(m: ImageManifest): string {
  const ordered: ImageManifest = {
    format: m.format, version: m.version, name: m.name, description: m.description, arch: m.arch,
    memory: m.memory, clock: { hz: m.clock.hz, cpu_hz: m.clock.cpu_hz, quantum_ms: m.clock.quantum_ms },
    devices: {
      disk: { latency_us: m.devices.disk.latency_us, bandwidth: m.devices.disk.bandwidth },
      store: { latency_us: m.devices.store.latency_us, bandwidth: m.devices.store.bandwidth },
    },
    trbuf_size: m.trbuf_size, traced: [...m.traced], init: [...m.init], env: [...m.env], command: m.command,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** Serialises an image: manifest first, then directories and files sorted by path. */
export function writeImage(img: BootImage): Uint8Array {
  const entries: TarEntry[] = [{ path: 'manifest.json', type: 'file', mode: 0o644, data: Buffer.from(manifestJson(img.manifest)) }];
  const dirs = [...img.dirs.keys()].filter((d) => d !== '/').sort();
  const files = [...img.files.keys()].sort();
  entries.push({ path: 'root', type: 'dir', mode: img.dirs.get('/')?.mode ?? 0o755 });
  for (const d of dirs) entries.push({ path: `root${d}`, type: 'dir', mode: img.dirs.get(d)!.mode });
  for (const f of files) {
    const x = img.files.get(f)!;
    entries.push({ path: `root${f}`, type: 'file', mode: x.mode, data: x.data });
  }
  return writeTar(entries);
}

/** Parses and validates an image file's bytes. */
export function parseImage(bytes: Uint8Array, file: string): BootImage {
  const entries = readTar(bytes, file);
  const manifests = entries.filter((e) => e.path === 'manifest.json');
  if (manifests.length !== 1 || manifests[0]!.type !== 'file') {
    throw new ImageError(file, manifests.length > 1 ? 'more than one manifest.json entry' : 'no manifest.json file entry (not a boot image)');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(manifests[0]!.data ?? new Uint8Array()).toString('utf8'));
  } catch (e) {
    throw new ImageError(file, `manifest.json is not valid JSON: ${(e as Error).message}`);
  }
  const manifest = validateManifest(parsed, file);
  const files = new Map<string, ImageFile>();
  const dirs = new Map<string, { mode: number }>([['/', { mode: 0o755 }]]);
  for (const e of entries) {
    if (e === manifests[0]) continue;
    if (e.path !== 'root' && !e.path.startsWith('root/')) throw new ImageError(file, `entry '${e.path}' is outside root/`);
    const guest = e.path === 'root' ? '/' : e.path.slice(4);
    if (guest.split('/').some((c) => c === '..' || c === '.')) throw new ImageError(file, `entry '${e.path}' has a '.' or '..' component`);
    if (e.type === 'dir') dirs.set(guest, { mode: e.mode });
    else files.set(guest, { mode: e.mode, data: e.data ?? new Uint8Array() });
  }
  for (const p of [...files.keys(), ...dirs.keys()]) {
    const parent = p.slice(0, p.lastIndexOf('/')) || '/';
    if (p !== '/' && !dirs.has(parent)) throw new ImageError(file, `'${p}' has no parent directory entry '${parent}'`);
  }
  const init = manifest.init[0]!;
  if (!files.has(init)) throw new ImageError(file, `init program ${init} is not in the image`);
  for (const t of manifest.traced) if (!files.has(t)) throw new ImageError(file, `traced program ${t} is not in the image`);
  return { manifest, files, dirs };
}

export function readImage(file: string): BootImage {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new ImageError(file, `cannot read: ${(e as Error).message}`);
  }
  return parseImage(bytes, file);
}
