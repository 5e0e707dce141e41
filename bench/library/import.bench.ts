/**
 * Folder import (`main.ts import`, issue 27): the test fixtures' seven songs (MP3 tagged with a
 * cover, MP3 plain, Opus, Vorbis, M4A with a cover, FLAC with a cover, WAV) copied
 * `IMPORT_COPIES` (200) times into a tree, each copy made distinct by a few bytes after its
 * audio (else the import takes each song once and skips the rest as duplicates). Prints the
 * first run's files/s and MB/s, then the re-run's (everything skipped by content hash). PGlite
 * (and PostgreSQL with TEST_DATABASE_URL), local storage. Prints figures only.
 */
import { appendFile, copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { libraryModule } from '../../server/src/features/library/library.module.js';
import { buildAudioFixtures } from '../../server/test/support/audio-fixtures.js';
import { benchEngines, startBenchApp } from './bench-app.js';

const COPIES = Number(process.env['IMPORT_COPIES'] ?? 200);

const fixtures = await buildAudioFixtures();
const tree = await mkdtemp(path.join(tmpdir(), 'encore-import-bench-'));
try {
  const songs = [fixtures.taggedMp3, fixtures.plainMp3, fixtures.opus, fixtures.vorbis, fixtures.m4a, fixtures.flac, fixtures.wav];
  for (let copy = 0; copy < COPIES; copy += 1) {
    const folder = path.join(tree, `Artist ${copy % 20}`, `Album ${copy}`);
    await mkdir(folder, { recursive: true });
    for (const song of songs) {
      const target = path.join(folder, path.basename(song));
      await copyFile(song, target);
      // Trailing bytes past the last frame: players and parsers skip them; the hash differs.
      await appendFile(target, Buffer.from(`\0\0\0\0encore-bench-copy-${copy}`));
    }
  }
  console.log(`${COPIES * songs.length} files (${COPIES} copies of ${songs.length} songs)`);
  for (const engine of benchEngines) {
    const bench = await startBenchApp(engine);
    try {
      const { folderImport } = bench.app.encore.modules.internals(libraryModule);
      for (const label of ['first run', 're-run (all skipped)']) {
        const started = performance.now();
        const report = await folderImport.run(tree, { ownerId: bench.userId });
        const seconds = (performance.now() - started) / 1000;
        const files = report.imported.length + report.skipped.length + report.duplicates.length + report.refused.length + report.failed.length;
        const megabytes = report.importedBytes / 1e6;
        console.log(
          `${engine} ${label}: ${report.imported.length} imported, ${report.skipped.length} skipped, ${report.refused.length} refused, ` +
            `${report.failed.length} failed in ${seconds.toFixed(1)} s: ${(files / seconds).toFixed(0)} files/s, ${(megabytes / seconds).toFixed(1)} MB/s imported`,
        );
        for (const refused of report.refused.slice(0, 5)) console.log(`  refused ${refused.path}: ${refused.reason}`);
        for (const failed of report.failed.slice(0, 5)) console.log(`  failed ${failed.path}: ${failed.reason}`);
      }
    } finally {
      await bench.close();
    }
  }
} finally {
  await rm(tree, { recursive: true, force: true });
  await fixtures.cleanup();
}
