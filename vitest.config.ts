import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import Sequencer from './test/setup/sequencer.js';

/**
 * `npm test`: every test file but the exhaustive ones (`*.full.test.ts`: matrices, corpora),
 * which `npm run test:full` runs (vitest.full.config.ts).
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/**/*.full.test.ts', '**/node_modules/**'],
    globalSetup: ['test/setup/global.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: one worker on CI's 2-core machine,
    // which ran the suite serially. The test files are independent (the build driver's cache is
    // safe under concurrent builds), so every core runs one.
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: Sequencer },
  },
});
