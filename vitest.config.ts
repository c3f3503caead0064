import { defineConfig } from 'vitest/config';

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
  },
});
