import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Child processes and workers load the built addon; run files in separate forks.
    pool: 'forks',
  },
});
