/**
 * `emu images ...`: build the guest runtime, programs and boot images; check binaries; make,
 * show and unpack boot images of your own.
 */
import { Command, Option } from 'commander';
import { describe } from './commands.js';
import cliProgress from 'cli-progress';
import { buildAll } from '../images/make.js';
import { variant } from '../images/build.js';
import { LIBCS, buildUserProgram, type Libc } from '../images/runtime.js';
import { programs } from '../images/catalog.js';
import { BOOT_DIR, packImages } from '../images/pack.js';
import { createImage, describeImage, extractImage, type CreateRequest } from '../images/create.js';
import { readImage, validateManifest, writeImage, type DeviceModel } from '../format/image.js';
import { parseSize } from './units.js';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkBuilt } from '../images/checkall.js';
import { imageSpecs } from '../images/specs.js';
import { FLAVOURS, missingTools, type Flavour } from '../images/toolchain.js';
import { TARGET_NAMES, type TargetName } from '../format/target.js';

interface CreateOpts {
  output: string;
  dir?: string;
  target?: TargetName;
  manifest?: string;
  base: boolean;
  name?: string;
  description?: string;
  traced?: string;
  command?: string;
  rc?: string;
  mem?: string;
  hz?: string;
  cpuHz?: string;
  quantumMs?: string;
  trbufSize?: string;
  disk?: string;
  store?: string;
  env?: string[];
}

function positive(v: string, what: string): number {
  if (!/^[1-9]\d*$/.test(v)) throw new Error(`${what}: '${v}' is not a positive integer`);
  return Number(v);
}

/** "LATENCY_US:BANDWIDTH" */
function deviceModel(v: string, what: string): DeviceModel {
  const m = /^(\d+):(\d+)$/.exec(v);
  if (!m || Number(m[2]) <= 0) throw new Error(`${what}: '${v}' is not LATENCY_US:BYTES_PER_SECOND (e.g. 10000:2000000)`);
  return { latency_us: Number(m[1]), bandwidth: Number(m[2]) };
}

/** A path, or the name of a shipped image (li-sparc → images/boot/li-sparc.tar). */
function imageFile(t: string): string {
  if (existsSync(t)) return t;
  for (const c of [join(BOOT_DIR, `${t}.tar`), join(BOOT_DIR, t)]) if (existsSync(c)) return c;
  throw new Error(`${t}: no such image`);
}

export function imagesCommand(): Command {
  const cmd = new Command('images').description(describe('images'));

  cmd.command('build')
    .description('build the guest libc, programs (both syscall flavours) and host-native oracle builds')
    .addOption(new Option('-t, --target <target...>', 'targets').choices(TARGET_NAMES))
    .addOption(new Option('-f, --flavour <flavour...>', 'syscall flavours').choices(FLAVOURS))
    .option('-p, --program <name...>', 'programs (default: all)')
    .option('--no-native', 'skip host-native builds')
    .option('--no-images', 'do not pack the boot images (images/boot/*.tar)')
    .option('--no-progress', 'no progress bar')
    .action(async (o: { target?: TargetName[]; flavour?: Flavour[]; program?: string[]; native: boolean; images: boolean; progress: boolean }) => {
      const missing = missingTools();
      if (missing.length) throw new Error(`the guest toolchain is not installed (missing: ${missing.join(', ')}); see README "Building images"`);
      const bar = o.progress && process.stderr.isTTY ? new cliProgress.SingleBar({ format: 'build [{bar}] {value}/{total} {what}', stream: process.stderr }, cliProgress.Presets.shades_classic) : undefined;
      let started = false;
      const req: Parameters<typeof buildAll>[0] = {
        native: o.native,
        onProgress: (done, total, what) => {
          if (!bar) return;
          if (!started) { bar.start(total, 0, { what }); started = true; }
          bar.update(done, { what });
        },
      };
      if (o.target) req.targets = o.target;
      if (o.flavour) req.flavours = o.flavour;
      if (o.program) req.programs = o.program;
      try {
        const r = await buildAll(req);
        bar?.stop();
        let n = r.native.size;
        for (const m of r.executables.values()) n += m.size;
        process.stdout.write(`built ${n} executables\n`);
        if (o.images && !o.target && !o.flavour && !o.program) {
          const imgs = await packImages();
          process.stdout.write(`packed ${imgs.length} boot images into images/boot/\n`);
        }
      } catch (e) {
        bar?.stop();
        throw e;
      }
    });

  cmd.command('check')
    .description('ISA-purity, privileged-instruction, reserved-register and foreign-code check of built executables')
    .addOption(new Option('-t, --target <target...>', 'targets').choices(TARGET_NAMES))
    .addOption(new Option('-f, --flavour <flavour...>', 'syscall flavours').choices(FLAVOURS))
    .option('-p, --program <name...>', 'programs (default: all; with --libc newlib, the portable ones)')
    .addOption(new Option('--libc <libc>', 'C library the programs are built against; newlib also checks every member of its libraries').choices(LIBCS).default('emu'))
    .action(async (o: { target?: TargetName[]; flavour?: Flavour[]; program?: string[]; libc: Libc }) => {
      const missing = missingTools();
      if (missing.length) throw new Error(`the check disassembles with binutils, which is not installed (missing: ${missing.join(', ')})`);
      const req: Parameters<typeof checkBuilt>[0] = { libc: o.libc, log: (m) => process.stderr.write(`emu images check: ${m}\n`) };
      if (o.target) req.targets = o.target;
      if (o.flavour) req.flavours = o.flavour;
      if (o.program) req.programs = o.program;
      const r = await checkBuilt(req);
      for (const f of r.failures) process.stderr.write(`${f}\n`);
      process.stdout.write(`checked ${r.checked} ${o.libc === 'emu' ? 'executables' : 'executables and libraries'}: ${r.failures.length === 0 ? 'all pure' : `${r.failures.length} with violations`}\n`);
      if (r.failures.length) process.exitCode = 1;
    });

  cmd.command('cc')
    .description("compile and link your own C/assembly program against emu's guest runtime")
    .argument('<files...>', '.c, .S or .s source files')
    .addOption(new Option('-t, --target <target>', 'target machine').choices(TARGET_NAMES).makeOptionMandatory())
    .addOption(new Option('-f, --flavour <flavour>', "syscall flavour: bsd runs on emu's kernel, linux under qemu-user").choices(FLAVOURS).default('bsd'))
    .requiredOption('-o, --output <file>', 'executable to write')
    // One flag per -X, repeatable: a variadic option would also swallow the source files after it.
    // `-X=-DN=1` is commander's attached form of -X: the '=' is not part of the flag.
    .option('-X, --cflag <flag>', 'one extra compiler flag, repeatable: -X -O3 -X -DN=100 (or -X=-DN=100, --cflag=-O3)', (f: string, all: string[]) => [...all, f.replace(/^=/, '')], [] as string[])
    .addOption(new Option('--libc <libc>', "C library: emu (the project's, images/libc) or newlib (built from Debian's newlib-source on first use)").choices(LIBCS).default('emu'))
    .option('-v, --verbose', 'show each compiler and linker command line')
    .addHelpText('after', '\nExample:\n  emu images cc -t mips -X -O3 -X -DN=100 a.c b.S -o prog\n\nThe compiler\'s warnings (it compiles with -Wall) go to standard error.')
    .action(async (files: string[], o: { target: TargetName; flavour: Flavour; output: string; libc: Libc; cflag: string[]; verbose?: boolean }) => {
      const missing = missingTools();
      if (missing.length) throw new Error(`the guest toolchain is not installed (missing: ${missing.join(', ')}); see README "Building your own program"`);
      await buildUserProgram(variant(o.target, o.flavour), files, o.output, o.cflag, o.libc, (m) => process.stderr.write(`emu images cc: ${m}\n`), {
        diagnostics: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
        ...(o.verbose ? { command: (l: string) => process.stderr.write(`${l}\n`) } : {}),
      });
    });

  cmd.command('create')
    .description('make a boot image of your own from guest executables and/or a host directory (docs/images.md)')
    .argument('[programs...]', 'guest executables: FILE (installed as /bin/FILE) or FILE=GUESTPATH')
    .requiredOption('-o, --output <file>', 'the image to write (.tar)')
    .option('-d, --dir <dir>', 'a host directory copied into the guest root (its etc/rc is the command unless one is given)')
    .addOption(new Option('-t, --target <target>', 'target machine (default: the executables\')').choices(TARGET_NAMES))
    .option('--manifest <file>', 'start from this manifest.json (emu images extract writes one); the options below override it')
    .option('--no-base', 'without the base system (/sbin/init, /bin/sh, echo, cat, wc, /etc/passwd, /etc/group, /root)')
    .option('--name <name>', 'the image\'s name (default: the output file\'s)')
    .option('--description <text>', 'one line')
    .option('--traced <paths>', 'guest paths emu run --trace instruments, comma-separated, or none (default: the programs given)')
    .option('-c, --command <text>', 'what the run executes: the text of /etc/rc (default: the one program)')
    .option('--rc <file>', 'a host file whose text becomes /etc/rc')
    .option('--mem <size>', 'physical memory, e.g. 64M')
    .option('--hz <n>', 'clock interrupts per virtual second')
    .option('--cpu-hz <n>', 'virtual cycles per second')
    .option('--quantum-ms <n>', 'the scheduler\'s quantum in virtual milliseconds')
    .option('--trbuf-size <size>', 'the trace buffer, e.g. 1M (a multiple of 4096)')
    .option('--disk <lat:bw>', 'the disk model: latency in virtual microseconds and bytes per virtual second, e.g. 10000:2000000')
    .option('--store <lat:bw>', 'the trace store device model, e.g. 0:350000')
    .option('--env <NAME=value>', 'an environment entry of init, repeatable (default: PATH=/bin:/usr/bin HOME=/)', (e: string, all: string[] | undefined) => [...all ?? [], e])
    .addHelpText('after', '\nExample (docs/images.md):\n  emu images create -o mine.tar prog child=/bin/child -d files -c \'prog 1000 < /data/in\' --traced /bin/prog,/bin/child')
    .action(async (programs: string[], o: CreateOpts) => {
      const req: CreateRequest = {
        output: o.output,
        programs: programs.map((p) => {
          const i = p.indexOf('=');
          return i < 0 ? { host: p } : { host: p.slice(0, i), guest: p.slice(i + 1) };
        }),
        base: o.base,
      };
      if (o.dir) req.dir = o.dir;
      if (o.target) req.target = o.target;
      if (o.manifest) {
        let j: unknown;
        try {
          j = JSON.parse(readFileSync(o.manifest, 'utf8'));
        } catch (e) {
          throw new Error(`${o.manifest}: ${(e as Error).message}`);
        }
        req.manifest = validateManifest(j, o.manifest);
      }
      if (o.name !== undefined) req.name = o.name;
      if (o.description !== undefined) req.description = o.description;
      if (o.traced !== undefined) req.traced = o.traced === 'none' ? [] : o.traced.split(',').filter((x) => x !== '');
      if (o.command !== undefined && o.rc !== undefined) throw new Error('give --command or --rc, not both');
      if (o.command !== undefined) req.command = o.command;
      if (o.rc !== undefined) req.command = readFileSync(o.rc, 'utf8');
      if (o.mem !== undefined) req.memory = parseSize(o.mem, '--mem');
      const clock: CreateRequest['clock'] = {};
      if (o.hz !== undefined) clock.hz = positive(o.hz, '--hz');
      if (o.cpuHz !== undefined) clock.cpu_hz = positive(o.cpuHz, '--cpu-hz');
      if (o.quantumMs !== undefined) clock.quantum_ms = positive(o.quantumMs, '--quantum-ms');
      req.clock = clock;
      if (o.trbufSize !== undefined) req.trbufSize = parseSize(o.trbufSize, '--trbuf-size');
      if (o.disk !== undefined) req.disk = deviceModel(o.disk, '--disk');
      if (o.store !== undefined) req.store = deviceModel(o.store, '--store');
      if (o.env) req.env = o.env;
      const img = await createImage(req);
      const bytes = writeImage(img);
      const tmp = `${o.output}.${process.pid}.tmp`;
      writeFileSync(tmp, bytes);
      renameSync(tmp, o.output);
      process.stderr.write(`emu images create: ${o.output}: ${img.manifest.arch}, ${img.files.size} files, traced ${img.manifest.traced.join(' ') || 'none'}\n`);
    });

  cmd.command('show')
    .description('print an image\'s manifest and its files')
    .argument('<image>', 'a boot image (.tar, or a name in images/boot)')
    .action((image: string) => {
      process.stdout.write(describeImage(readImage(imageFile(image))));
    });

  cmd.command('extract')
    .description('unpack an image: DIR/manifest.json and the guest files under DIR/root (emu images create --manifest --dir --no-base packs them again)')
    .argument('<image>', 'a boot image (.tar, or a name in images/boot)')
    .argument('<dir>', 'a directory that does not exist or is empty')
    .action((image: string, dir: string) => {
      extractImage(readImage(imageFile(image)), dir);
    });

  cmd.command('list')
    .description('list the guest programs and their tests')
    .action(() => {
      process.stdout.write('programs:\n');
      for (const p of programs()) {
        process.stdout.write(`  ${p.name.padEnd(12)} ${p.kind.padEnd(9)} ${p.description}\n`);
      }
      process.stdout.write('boot images (images/boot/):\n');
      for (const s of imageSpecs()) process.stdout.write(`  ${s.name.padEnd(18)} ${s.description}\n`);
    });

  return cmd;
}
