/**
 * Behaviour fingerprint: sha256 of what the pipeline produces, for checking that a refactoring
 * changes nothing. Prints one line per artefact, `<sha256> <name>`, sorted by name, so two runs
 * compare with `diff`:
 *   - `instrument/<target>/<program>.elf` and `.schema`: instrument() of every BSD-flavour build in
 *     images/build/bsd-<target>/bin (the schema as its JSON text; `.refused`: the refusal's message);
 *   - `boot/<image>.tar`: the committed boot images (run `emu images build` first to check that a
 *     rebuild reproduces them);
 *   - `bundle/<image>/<file>`: the demo images traced with ground truth (`emu run IMAGE --trace
 *     --truth`): trace, sched, truth, console.out, stats.json and each schema; the manifest less
 *     the fields that name host paths.
 *
 *   npm run build && node dist/bench/fingerprint.js [--targets mipsel,sparc] [--skip-bundles] > before.txt
 *
 * The guest builds must exist (`emu images build -f bsd`).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { BUILD_DIR } from '../images/build.js';
import { programNames } from '../images/catalog.js';
import { readImage } from '../format/image.js';
import { BOOT_DIR } from '../images/pack.js';
import type { Console } from '../os/dev.js';
import { runTraced } from '../bin/trace_run.js';
import { instrument } from '../tracer/instrument.js';
import { TARGET_NAMES, benchCommand, checkNames, list } from './cli.js';

const sha = (b: Uint8Array | string): string => createHash('sha256').update(b).digest('hex');
const quiet: Console = { write: () => {}, writeErr: () => {}, read: () => new Uint8Array(0) };

async function main(): Promise<void> {
  const cmd = benchCommand('fingerprint.js', 'sha256 of instrumented programs, boot images and traced demo bundles (refactoring check)')
    .option('--targets <list>', 'targets whose builds are instrumented', list, ['mipsel', 'mips', 'sparc'])
    .option('--skip-bundles', 'do not trace the demo images')
    .parse(process.argv);
  const o = cmd.opts<{ targets: string[]; skipBundles?: boolean }>();
  checkNames(cmd, 'target', o.targets, TARGET_NAMES);
  const rows: string[] = [];
  for (const t of o.targets) {
    const dir = join(BUILD_DIR, `bsd-${t}`, 'bin');
    if (!existsSync(dir)) throw new Error(`${dir} does not exist (build it: emu images build -t ${t} -f bsd)`);
    for (const p of programNames().filter((n) => existsSync(join(dir, n))).sort()) {
      try {
        const r = instrument(new Uint8Array(readFileSync(join(dir, p))), join(dir, p));
        rows.push(`${sha(r.elf)} instrument/${t}/${p}.elf`, `${sha(JSON.stringify(r.schema))} instrument/${t}/${p}.schema`);
      } catch (e) {
        // A refusal is behaviour too: its message (less the host path) is what is compared.
        rows.push(`${sha((e as Error).message.replaceAll(dir, ''))} instrument/${t}/${p}.refused`);
      }
    }
  }
  for (const f of readdirSync(BOOT_DIR).filter((x) => x.endsWith('.tar')).sort()) rows.push(`${sha(readFileSync(join(BOOT_DIR, f)))} boot/${f}`);
  if (!o.skipBundles) {
    const tmp = mkdtempSync(join(tmpdir(), 'emu-fingerprint-'));
    try {
      for (const name of ['demo-mipsel', 'demo-sparc']) {
        const out = join(tmp, name);
        await runTraced({
          image: { img: readImage(join(BOOT_DIR, `${name}.tar`)), file: `${name}.tar` }, out, truth: true, console: quiet,
          log: pino({ level: 'silent' }), cacheDir: join(tmp, 'cache'),
        });
        for (const f of ['trace', 'sched', 'truth', 'console.out', 'stats.json']) rows.push(`${sha(readFileSync(join(out, f)))} bundle/${name}/${f}`);
        for (const f of readdirSync(join(out, 'schemas')).sort()) rows.push(`${sha(readFileSync(join(out, 'schemas', f)))} bundle/${name}/schemas/${f}`);
        const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { image: { file?: string } };
        delete m.image.file;
        rows.push(`${sha(JSON.stringify(m))} bundle/${name}/manifest.json`);
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  rows.sort((a, b) => (a.slice(65) < b.slice(65) ? -1 : 1));
  process.stdout.write(`${rows.join('\n')}\n`);
}

await main();
