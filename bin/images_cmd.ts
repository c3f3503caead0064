/**
 * `emu images ...`: build the guest runtime, programs and boot images; check binaries.
 */
import { Command, Option } from 'commander';
import cliProgress from 'cli-progress';
import { buildAll } from '../images/make.js';
import { buildUserProgram, variant } from '../images/build.js';
import { programs } from '../images/catalog.js';
import { packImages } from '../images/pack.js';
import { checkBuilt } from '../images/checkall.js';
import { imageSpecs } from '../images/specs.js';
import { FLAVOURS, missingTools, type Flavour } from '../images/toolchain.js';
import { TARGET_NAMES, type TargetName } from '../format/target.js';

export function imagesCommand(): Command {
  const cmd = new Command('images').description('build and check guest programs and boot images');

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
    .option('-p, --program <name...>', 'programs (default: all)')
    .action(async (o: { target?: TargetName[]; flavour?: Flavour[]; program?: string[] }) => {
      const missing = missingTools();
      if (missing.length) throw new Error(`the check disassembles with binutils, which is not installed (missing: ${missing.join(', ')})`);
      const req: Parameters<typeof checkBuilt>[0] = {};
      if (o.target) req.targets = o.target;
      if (o.flavour) req.flavours = o.flavour;
      if (o.program) req.programs = o.program;
      const r = await checkBuilt(req);
      for (const f of r.failures) process.stderr.write(`${f}\n`);
      process.stdout.write(`checked ${r.checked} executables: ${r.failures.length === 0 ? 'all pure' : `${r.failures.length} with violations`}\n`);
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
    .option('-v, --verbose', 'show each compiler and linker command line')
    .addHelpText('after', '\nExample:\n  emu images cc -t mips -X -O3 -X -DN=100 a.c b.S -o prog\n\nThe compiler\'s warnings (it compiles with -Wall) go to standard error.')
    .action(async (files: string[], o: { target: TargetName; flavour: Flavour; output: string; cflag: string[]; verbose?: boolean }) => {
      const missing = missingTools();
      if (missing.length) throw new Error(`the guest toolchain is not installed (missing: ${missing.join(', ')}); see README "Building your own program"`);
      await buildUserProgram(variant(o.target, o.flavour), files, o.output, o.cflag, {
        diagnostics: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
        ...(o.verbose ? { command: (l: string) => process.stderr.write(`${l}\n`) } : {}),
      });
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
