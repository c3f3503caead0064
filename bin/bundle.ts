/**
 * Build step (after tsc; `npm run build`, and `npm install` through `prepare`): bundles the
 * compiled CLI (dist/bin/cli.js and everything it imports, node_modules included) into one
 * CommonJS file, dist/emu.cjs, which bin/emu.js loads with a V8 code cache.
 *
 * Why: a cold `emu` spent most of its start-up resolving, reading and compiling some 150 ES
 * modules one by one; one file is read and compiled at once, and from the code cache not compiled
 * at all. Modules a command imports with import() stay lazy inside the bundle (esbuild runs their
 * top level on first import), so a command initialises only what it uses.
 *
 * import.meta.url: each module sees the URL its file has in dist/ (dist/os/syscalltab.js, ...), so
 * paths computed from it (images/, os/syscalls.master, tracer/ for the instrumenter's key) are the
 * same bundled or not.
 */
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const DIST = dirname(dirname(fileURLToPath(import.meta.url)));
export const BUNDLE = join(DIST, 'emu.cjs');
/** The code cache bin/emu.js keeps beside the bundle (made on the first run, see there). */
export const BUNDLE_CACHE = `${BUNDLE}.cache`;

/** Replaces import.meta.url in each module of dist/ by the URL of that module's file. */
const moduleUrls: Plugin = {
  name: 'module-urls',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, async (a) => {
      const contents = await readFile(a.path, 'utf8');
      const rel = relative(DIST, a.path).split('\\').join('/');
      if (rel.startsWith('..') || !contents.includes('import.meta.url')) return { contents, loader: 'js' };
      return { contents: contents.replaceAll('import.meta.url', `new URL(${JSON.stringify(`./${rel}`)}, __emuBundleUrl).href`), loader: 'js' };
    });
  },
};

/**
 * commander requires node:child_process when it loads, for the executable subcommands emu does not
 * have; loading it (with net, dgram and Node's streams) cost every command about 1-3 ms of start-up.
 * Its require resolves to a stand-in that loads the real module on first use.
 */
const LAZY = 'emu-lazy-builtin';
const lazyChildProcess: Plugin = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (a) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(a.importer) ? { path: 'node:child_process', namespace: LAZY } : undefined);
    b.onLoad({ filter: /.*/, namespace: LAZY }, (a) => ({
      contents: `let m;\nmodule.exports = new Proxy({}, { get: (_, k) => (m ??= require(${JSON.stringify(a.path)}))[k] });\n`,
      loader: 'js',
    }));
  },
};

export async function bundle(): Promise<void> {
  await rm(BUNDLE_CACHE, { force: true });
  await build({
    entryPoints: [join(DIST, 'bin', 'cli.js')],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Whitespace only: names stay, so messages and stack traces read as in the sources.
    minifyWhitespace: true,
    banner: { js: "const __emuBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [moduleUrls, lazyChildProcess],
    logLevel: 'warning',
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await bundle();
