/**
 * Boot images of your own (`emu images create`, `show`, `extract`; docs/images.md "Your own
 * image"): an image assembled from guest executables and a host directory, with the manifest's
 * options; its listing; and its unpacking into a directory that `create` takes back.
 *
 * Contract: createImage returns an image that parseImage accepts (it is checked by a round trip
 * before it is returned), or throws an error naming the file or option at fault. The same inputs
 * give the same image, byte for byte (writeImage is deterministic; directories are read sorted).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { EM_MIPS, EM_SPARC, ElfError, elfArch, parseElf } from '../format/elf.js';
import { BASE_ETC_FILES, MACHINE_DEFAULTS, manifestJson, parseImage, readImage, writeImage, IMAGE_FORMAT, IMAGE_VERSION, type BootImage, type DeviceModel, type ImageManifest } from '../format/image.js';
import type { TargetName } from '../format/target.js';
import { buildProgram, variant } from './build.js';
import { BOOT_DIR, addFile } from './pack.js';
import { BASE_PROGRAMS, imageSpecs } from './specs.js';
import { missingTools } from './toolchain.js';

export interface CreateRequest {
  /** The image file being made (messages, and the default name). */
  output: string;
  /** Guest executables: host file -> guest path (default /bin/<file name>). */
  programs: { host: string; guest?: string }[];
  /** A host directory copied into the guest root (after the base system and the programs). */
  dir?: string;
  /** Start from this manifest (e.g. one `extract` wrote); the other fields override it. */
  manifest?: ImageManifest;
  /** Add the base system: /sbin/init, /bin/sh, echo, cat, wc, /etc/passwd, /etc/group, /root (default true). */
  base?: boolean;
  target?: TargetName;
  name?: string;
  description?: string;
  /** Guest paths `emu run --trace` instruments (default: the programs given). */
  traced?: string[];
  /** The text of /etc/rc (default: the manifest's, DIR/etc/rc, or the one program's path). */
  command?: string;
  memory?: number;
  clock?: Partial<ImageManifest['clock']>;
  disk?: DeviceModel;
  store?: DeviceModel;
  trbufSize?: number;
  env?: string[];
  init?: string[];
}

function isElf(b: Uint8Array): boolean {
  return b.length >= 4 && b[0] === 0x7f && b[1] === 0x45 && b[2] === 0x4c && b[3] === 0x46;
}

/** The target of an executable for emu's machines, or null when it is not one. */
function targetOf(bytes: Uint8Array, file: string): TargetName | null {
  try {
    const e = parseElf(bytes, file);
    if (e.header.machine !== EM_MIPS && e.header.machine !== EM_SPARC) return null;
    return elfArch(e);
  } catch (e) {
    if (e instanceof ElfError) return null;
    throw e;
  }
}

/** The files of a host directory, sorted, as guest paths under `at` (symbolic links followed). */
function hostTree(dir: string, at = ''): { guest: string; host: string; dir: boolean; mode: number }[] {
  const out: { guest: string; host: string; dir: boolean; mode: number }[] = [];
  for (const name of readdirSync(dir).sort()) {
    const host = join(dir, name);
    const guest = `${at}/${name}`;
    const st = statSync(host);
    if (st.isDirectory()) {
      out.push({ guest, host, dir: true, mode: st.mode & 0o7777 });
      out.push(...hostTree(host, guest));
    } else if (st.isFile()) {
      out.push({ guest, host, dir: false, mode: st.mode & 0o7777 });
    } else {
      throw new Error(`${host}: not a regular file or directory (an image holds files and directories only)`);
    }
  }
  return out;
}

/**
 * The base system's executables for a target: this tree's BSD builds when the toolchain is
 * installed, else the copies in a shipped image of that target (which CI keeps identical).
 */
async function baseSystem(target: TargetName): Promise<Map<string, Uint8Array>> {
  const path = (p: string): string => (p === 'init' ? '/sbin/init' : `/bin/${p}`);
  const out = new Map<string, Uint8Array>();
  if (missingTools().length === 0) {
    for (const p of BASE_PROGRAMS) out.set(path(p), new Uint8Array(readFileSync(await buildProgram(variant(target, 'bsd'), p))));
    return out;
  }
  const spec = imageSpecs().find((s) => s.target === target && existsSync(join(BOOT_DIR, `${s.name}.tar`)));
  if (!spec) throw new Error(`no base system for ${target}: the toolchain is not installed and images/boot has no ${target} image`);
  const img = readImage(join(BOOT_DIR, `${spec.name}.tar`));
  for (const p of BASE_PROGRAMS) out.set(path(p), img.files.get(path(p))!.data);
  return out;
}

function guestPath(p: string, what: string): string {
  if (!p.startsWith('/') || p.split('/').some((c) => c === '.' || c === '..') || p.endsWith('/')) {
    throw new Error(`${what}: '${p}' is not an absolute guest path of a file`);
  }
  return p;
}

/** Assembles an image (docs/images.md "Your own image"). */
export async function createImage(req: CreateRequest): Promise<BootImage> {
  const files = new Map<string, { mode: number; data: Uint8Array; from: string }>();
  const dirs = new Map<string, { mode: number }>([['/', { mode: 0o755 }]]);
  for (const d of ['/bin', '/dev', '/etc', '/sbin', '/tmp', '/usr']) dirs.set(d, { mode: d === '/tmp' ? 0o1777 : 0o755 });

  // The programs, and the target they agree on.
  const progs = req.programs.map((p) => {
    if (!existsSync(p.host)) throw new Error(`${p.host}: no such file`);
    const data = new Uint8Array(readFileSync(p.host));
    const t = targetOf(data, p.host);
    if (!t) throw new Error(`${p.host}: not a MIPS or SPARC ELF executable`);
    return { ...p, guest: guestPath(p.guest ?? `/bin/${basename(p.host)}`, p.host), data, target: t };
  });
  const tree = req.dir ? hostTree(req.dir) : [];
  if (req.dir && !statSync(req.dir).isDirectory()) throw new Error(`${req.dir}: not a directory`);
  let found: TargetName | undefined = req.target ?? req.manifest?.arch ?? progs[0]?.target;
  for (const f of tree) {
    if (found) break;
    const b = f.dir ? null : new Uint8Array(readFileSync(f.host));
    if (b && isElf(b)) found = targetOf(b, f.host) ?? undefined;
  }
  if (!found) throw new Error('no target: give -t TARGET, or a MIPS or SPARC executable');
  const target: TargetName = found;

  if (req.base ?? true) {
    for (const [p, data] of await baseSystem(target)) files.set(p, { mode: 0o755, data, from: `the ${target} base system` });
    for (const f of BASE_ETC_FILES) files.set(f.path, { mode: 0o644, data: Buffer.from(f.text), from: 'the base system' });
    dirs.set('/root', { mode: 0o755 });
  }
  for (const p of progs) files.set(p.guest, { mode: 0o755, data: p.data, from: p.host });
  for (const f of tree) {
    if (f.dir) dirs.set(f.guest, { mode: f.mode });
    else files.set(f.guest, { mode: f.mode, data: new Uint8Array(readFileSync(f.host)), from: f.host });
  }
  // Every executable must be of the image's machine (docs/images.md, manifest `arch`).
  for (const [p, f] of files) {
    if (!isElf(f.data)) continue;
    const t = targetOf(f.data, f.from);
    if (t !== target) throw new Error(`${f.from} (${p}): ${t ? `a ${t} executable` : 'not an executable of emu\'s machines'} in a ${target} image`);
  }

  const m = req.manifest;
  const rc = files.get('/etc/rc');
  const command = req.command ?? m?.command ?? (rc ? Buffer.from(rc.data).toString('utf8') : progs.length === 1 ? `${progs[0]!.guest}\n` : undefined);
  if (command === undefined) throw new Error('no command: give --command or --rc, an etc/rc in the directory, or exactly one program');
  const text = command.endsWith('\n') || command === '' ? command : `${command}\n`;
  files.set('/etc/rc', { mode: 0o644, data: Buffer.from(text), from: '/etc/rc' });

  const name = req.name ?? m?.name ?? basename(req.output).replace(/\.tar$/, '');
  const manifest: ImageManifest = {
    format: IMAGE_FORMAT, version: IMAGE_VERSION, name,
    description: req.description ?? m?.description ?? `made with emu images create`,
    arch: target,
    memory: req.memory ?? m?.memory ?? MACHINE_DEFAULTS.memory,
    clock: { ...(m?.clock ?? MACHINE_DEFAULTS.clock), ...req.clock },
    devices: { disk: req.disk ?? m?.devices.disk ?? { ...MACHINE_DEFAULTS.devices.disk }, store: req.store ?? m?.devices.store ?? { ...MACHINE_DEFAULTS.devices.store } },
    trbuf_size: req.trbufSize ?? m?.trbuf_size ?? MACHINE_DEFAULTS.trbuf_size,
    traced: (req.traced ?? m?.traced ?? progs.map((p) => p.guest)).map((p) => guestPath(p, '--traced')),
    init: req.init ?? m?.init ?? ['/sbin/init'],
    env: req.env ?? m?.env ?? [...MACHINE_DEFAULTS.env],
    command: text,
  };
  const img: BootImage = { manifest, files: new Map(), dirs };
  for (const [p, f] of [...files].sort((a, b) => (a[0] < b[0] ? -1 : 1))) addFile(img, p, f.data, f.mode);
  // The reader's checks (manifest fields, init and traced programs present) before anything is written.
  return parseImage(writeImage(img), req.output);
}

/** `emu images show`: the manifest, then every directory and file with mode and size. */
export function describeImage(img: BootImage): string {
  const m = img.manifest;
  const traced = new Set(m.traced);
  const mode = (dir: boolean, x: number): string => {
    let s = dir ? 'd' : '-';
    for (let i = 8; i >= 0; i--) s += (x >> i) & 1 ? 'rwx'[(8 - i) % 3] : '-';
    if (x & 0o1000) s = s.slice(0, 9) + (x & 1 ? 't' : 'T');
    return s;
  };
  const rows: [string, string][] = [];
  for (const [p, d] of img.dirs) rows.push([p, `${mode(true, d.mode)} ${''.padStart(8)} ${p}`]);
  for (const [p, f] of img.files) {
    const notes = [p === m.init[0] ? 'init' : '', traced.has(p) ? 'traced' : '', p === '/etc/rc' ? 'the command' : ''].filter(Boolean);
    rows.push([p, `${mode(false, f.mode)} ${String(f.data.length).padStart(8)} ${p}${notes.length ? `   (${notes.join(', ')})` : ''}`]);
  }
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `manifest.json:\n${manifestJson(m)}files:\n${rows.map((r) => r[1]).join('\n')}\n`;
}

/**
 * `emu images extract`: DIR/manifest.json and the guest tree under DIR/root (modes kept), which
 * `emu images create --manifest DIR/manifest.json --dir DIR/root --no-base` packs again into the
 * same bytes. DIR must not exist or be empty.
 */
export function extractImage(img: BootImage, dir: string): void {
  if (existsSync(dir) && (!statSync(dir).isDirectory() || readdirSync(dir).length > 0)) throw new Error(`${dir}: exists and is not an empty directory`);
  mkdirSync(join(dir, 'root'), { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), manifestJson(img.manifest));
  for (const p of [...img.dirs.keys()].sort()) {
    const h = join(dir, 'root', p);
    mkdirSync(h, { recursive: true });
    chmodSync(h, img.dirs.get(p)!.mode);
  }
  for (const [p, f] of img.files) {
    const h = join(dir, 'root', p);
    writeFileSync(h, f.data);
    chmodSync(h, f.mode);
  }
}
