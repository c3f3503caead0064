#!/usr/bin/env node
// Launcher for the emu command line: runs the bundled CLI, dist/emu.cjs (built by `npm install`,
// which runs the `prepare` script, or by `npm run build`; bin/bundle.ts).
//
// Start-up: the bundle is compiled from a V8 code cache, dist/emu.cjs.cache, when there is a valid
// one. Its first line names the bundle it was made from (size and modification time) and the
// commands whose runs it holds the compiled functions of. A run whose command is not among them,
// or that finds the cache missing, stale or rejected by this V8, writes a new cache at its end
// (the functions it took from the cache and those it compiled), atomically. The cache thus
// settles after each command has run once. A read-only dist/ only costs the cache.
//
// Optimising compiler: `emu instrument` runs with a 60-fold interrupt budget, set once its command
// is known: on V8 11 (Node 20) `--interrupt-budget=4000000` (the default is 67584 bytes of bytecode
// between two checks of whether a function is hot); V8 12 and later (Node 22 on) have no such flag
// and count those checks instead, `--invocation-count-for-turbofan=180000` (default 3000). The
// instrumenter runs each of its many passes over one program once, for a second or so: with the
// default budget TurboFan compiled about 590 functions of it on its background thread and threw 99
// of them away again (deoptimisations), which cost more CPU than the optimised code saved (on
// Node 22, twice the CPU of the whole run). With the larger budget nothing of CoreMark's run is
// hot enough for TurboFan (`--trace-opt`: no function compiled), and the analyses run in the
// baseline code, as with `--no-opt` (docs/tracer.md, "Instrumenting time"). Every other command keeps the default (the emulator lives
// on TurboFan). The flag is part of the hash V8 stamps a code cache with, and setting it back does
// not restore that hash on every V8 (V8 13, Node 24): a run that writes the cache keeps V8's
// defaults, so the first `emu instrument` after a build runs at the default budget once
// (test/bin/cli.test.ts checks that the next command accepts the cache). Where dist/ is not
// writable no run writes, and every `emu instrument` takes the larger budget.
//
// Node's modules are taken with require, not imported: an ES import of node:fs makes its module
// namespace, whose getters load Node's streams (about 1 ms) for nothing.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { accessSync, constants, existsSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { fileURLToPath } = require('node:url');
const { Script } = require('node:vm');

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const bundle = join(root, 'dist', 'emu.cjs');
if (!existsSync(bundle)) {
  process.stderr.write(`emu: ${bundle} is missing; run 'npm install' (or 'npm run build') in ${root} first\n`);
  process.exit(2);
}
const cacheFile = `${bundle}.cache`;
const st = statSync(bundle);
const stamp = `${st.size} ${st.mtimeMs}`;
let cached;
let commands = [];
try {
  const c = readFileSync(cacheFile);
  const line = c.subarray(0, c.indexOf(10)).toString('latin1').split(' ');
  if (line.length === 3 && `${line[0]} ${line[1]}` === stamp) {
    cached = c.subarray(c.indexOf(10) + 1);
    commands = line[2].split(',');
  }
} catch {
  cached = undefined;
}
// The bundle is ASCII (esbuild escapes the rest), so latin1 reads it without UTF-8 decoding.
const source = readFileSync(bundle, 'latin1');
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
  filename: bundle,
  cachedData: cached,
});
const mod = { exports: {} };
script.runInThisContext()(mod.exports, createRequire(bundle), mod, bundle, dirname(bundle));
const command = mod.exports.selectedCommand(process.argv, true) ?? 'help';
const writes = cached === undefined || script.cachedDataRejected || !commands.includes(command);
let writable = true;
try {
  accessSync(dirname(cacheFile), constants.W_OK);
} catch {
  writable = false;
}
if (command === 'instrument' && !(writes && writable)) {
  // node:v8 loaded here only: it loads Node's streams, which other commands may not need.
  require('node:v8').setFlagsFromString(Number(process.versions.v8.split('.')[0]) < 12 ? '--interrupt-budget=4000000' : '--invocation-count-for-turbofan=180000');
}
if (writes) {
  // At exit, so that commands which end with process.exit (commander's help of a subcommand) count.
  process.on('exit', () => {
    commands = cached === undefined || script.cachedDataRejected ? [command] : [...commands, command];
    try {
      const tmp = `${cacheFile}.${process.pid}`;
      writeFileSync(tmp, Buffer.concat([Buffer.from(`${stamp} ${commands.join(',')}\n`, 'latin1'), script.createCachedData()]));
      renameSync(tmp, cacheFile);
    } catch {
      // no cache this time (dist/ not writable)
    }
  });
}
const code = await mod.exports.main(process.argv, stamp);
// emu instrument does all its work synchronously, so once main returns nothing of it is left, but
// the event loop would still run what V8 schedules for a process that goes on (a scavenge of the
// instrumenter's 40 MB heap, about 10 ms of CPU): it exits at once. On Linux only, where writes to
// standard output and error are synchronous whatever they are (files, pipes, terminals), so none
// can be pending; the exit handlers (the code cache) run as ever.
if (command === 'instrument' && process.platform === 'linux') process.exit(code);
process.exitCode = code;
