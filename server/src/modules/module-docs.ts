import { getTableName } from 'drizzle-orm';
import type { AnyModule } from './module.js';
import { orderModules } from './module-graph.js';

const list = (items: readonly string[]): string => (items.length ? items.map((item) => `\`${item}\``).join(', ') : '—');

/**
 * The module table of server/src/features/README.md, written from the manifests
 * (`npm run docs:features`); a test fails when the README and the manifests disagree.
 */
export function moduleTable(modules: readonly AnyModule[]): string {
  const ordered = orderModules(modules);
  const providerOf = new Map(ordered.flatMap((module) => module.provides.map((port) => [port.name, module.name] as const)));
  const rows = ordered.map((module) =>
    [
      `**${module.name}**`,
      module.summary,
      module.provides.map((port) => `\`${port.name}\`: ${port.summary}`).join('<br>') || '—',
      module.requires.map((port) => `\`${port.name}\` (${providerOf.get(port.name) ?? '?'})`).join(', ') || '—',
      list(module.tables.map((table) => getTableName(table))),
      list(module.jobs.map((job) => job.name)),
      list(module.settings),
    ].join(' | '),
  );
  return [
    'Module | What it does | Provides (ports) | Requires (from) | Tables | Jobs | Settings',
    '--- | --- | --- | --- | --- | --- | ---',
    ...rows.map((row) => `${row}`),
  ].join('\n');
}

export const TABLE_START = '<!-- modules:start (npm run docs:features writes this table from the manifests) -->';
export const TABLE_END = '<!-- modules:end -->';

/** The README with its module table replaced by the one the manifests describe. */
export function withModuleTable(readme: string, modules: readonly AnyModule[]): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`The README has no ${TABLE_START} … ${TABLE_END} section.`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${moduleTable(modules)}\n${readme.slice(end)}`;
}
