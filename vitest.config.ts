// Unit tests run once; tests that touch the database (*.db.test.ts) run once per database kind:
// PGlite in memory, and a fresh database on the PostgreSQL server (TEST_DATABASE_URL or 127.0.0.1:5432).
import { defineConfig } from 'vitest/config';

const dbTests = 'test/**/*.db.test.ts';

export default defineConfig({
  // Node loads graphql's CommonJS entry for Pothos and yoga; Vite would pick its ESM twin for our
  // own files, and graphql refuses types from "another realm". One entry for all.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [dbTests, 'node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'pglite',
          include: [dbTests],
          env: { ZENITH_TEST_DB: 'pglite' },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: [dbTests],
          env: { ZENITH_TEST_DB: 'postgres' },
        },
      },
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // child processes: a file that leaves one running fails (and it is killed with its process
    // group); after the run, anything the tests started that still runs fails the run
    setupFiles: ['test/support/setup_processes.ts'],
    globalSetup: ['test/support/global_processes.ts'],
  },
});
