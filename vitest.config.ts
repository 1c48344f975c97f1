import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/support/postgres-template.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/postgres-template.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // What a page shows after a click or a navigation is polled for up to 5 s (Playwright's own
          // default for web-first assertions); Vitest's 1 s default failed on a slower CI machine.
          expect: { poll: { timeout: 5_000 } },
          // One browser and one server per file; files run one after another on 2 cores.
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
        },
      },
      {
        test: {
          // Tests that bound a latency, or a heavy run's time: alone, after the rest (scripts/test.sh).
          name: 'solo',
          include: ['tests/solo/**/*.test.ts'],
          globalSetup: ['tests/support/postgres-template.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
