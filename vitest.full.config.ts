import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/** `npm run test:full`: the exhaustive test files (`*.full.test.ts`), which `npm test` leaves out. */
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/**/*.full.test.ts'],
    exclude: ['**/node_modules/**'],
    passWithNoTests: true,
  },
});
