/**
 * `main.ts import` on a music collection as people have one (issue 39): the scan bench's tree
 * (`IMPORT_SONGS`, 2,000 small tagged MP3s as Artist/Album/NN Title.mp3, ten to an album, a
 * cover embedded in a third of the albums and a cover.jpg beside in another third), imported
 * into a fresh library: songs/s (goal ≥ 40) and where the time went (the process's CPU), then
 * the re-run that skips every song by its content hash. PGlite (and PostgreSQL with
 * TEST_DATABASE_URL), local storage, analysis on ingest as by default (its jobs are queued for
 * the server, not worked here). Prints figures only.
 */
import { libraryModule } from '../../server/src/features/library/library.module.js';
import { scanTree } from '../music-folders/scan-tree.js';
import { benchEngines, startBenchApp } from './bench-app.js';

const SONGS = Number(process.env['IMPORT_SONGS'] ?? 2000);

const tree = await scanTree(SONGS);
console.log(
  `${SONGS} songs, ${(tree.bytes / 1e6).toFixed(1)} MB${tree.generatedMs === null ? ' (tree reused)' : ` (generated in ${(tree.generatedMs / 1000).toFixed(1)} s)`}`,
);
for (const engine of benchEngines) {
  const bench = await startBenchApp(engine);
  try {
    const { folderImport } = bench.app.encore.modules.internals(libraryModule);
    for (const label of ['first run', 're-run (all skipped)']) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const report = await folderImport.run(tree.dir, { ownerId: bench.userId });
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const files = report.imported.length + report.skipped.length + report.duplicates.length + report.failed.length;
      console.log(
        `${engine} ${label}: ${report.imported.length} imported, ${report.skipped.length} skipped, ${report.refused.length} refused, ` +
          `${report.failed.length} failed in ${seconds.toFixed(1)} s: ${(files / seconds).toFixed(1)} songs/s (goal ≥ 40); ` +
          `this process's CPU ${((used.user + used.system) / 1e6).toFixed(1)} s (${((used.user + used.system) / 1e4 / seconds).toFixed(0)} % of a core)`,
      );
      for (const refused of report.refused.slice(0, 5)) console.log(`  refused ${refused.path}: ${refused.reason}`);
      for (const failed of report.failed.slice(0, 5)) console.log(`  failed ${failed.path}: ${failed.reason}`);
    }
  } finally {
    await bench.close();
  }
}
