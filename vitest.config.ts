import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const reportDir = process.env['ENCORE_REPORT_DIR'];

export default defineConfig({
  test: {
    // Vitest's default is one file at a time on a 2-core machine (cores - 1). Most server test
    // files spend their time waiting on PostgreSQL, ffmpeg or a loopback server rather than
    // computing, so two at a time use the second core instead of leaving it idle.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: reportDir ? ['default', ['json', { outputFile: `${reportDir}/vitest.json` }]] : ['default'],
    projects: [
      {
        resolve: { conditions: ['source'] },
        ssr: { resolve: { conditions: ['source'] } },
        test: { name: 'common', root: './common', include: ['src/**/*.test.ts'], environment: 'node' },
      },
      {
        resolve: { conditions: ['source'] },
        ssr: { resolve: { conditions: ['source'] } },
        test: {
          name: 'server',
          root: './server',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      './web/vitest.config.ts',
    ],
  },
});
