import { getTableName } from 'drizzle-orm';
import type { AnyModule } from './module.js';

/** The module list cannot be started: a cycle, a port nobody provides, two owners of one thing. */
export class ModuleGraphError extends Error {
  override readonly name = 'ModuleGraphError';
}

/**
 * The modules in an order where every module comes after the providers of the ports it
 * requires (the list's own order where it leaves a choice). Fails with a message naming the
 * modules of a cycle, a port with no provider or two, and a table, job or name claimed twice.
 */
export function orderModules(modules: readonly AnyModule[]): AnyModule[] {
  const claimed = (what: string, claims: [key: string, owner: string][]) => {
    const duplicate = firstDuplicate(claims);
    if (duplicate) throw new ModuleGraphError(`${what} "${duplicate.key}" is claimed by two modules: ${duplicate.owners.join(' and ')}.`);
  };
  claimed(
    'The name',
    modules.map((module) => [module.name, module.name]),
  );
  claimed(
    'Table',
    modules.flatMap((module) => module.tables.map((table): [string, string] => [getTableName(table), module.name])),
  );
  claimed(
    'Job',
    modules.flatMap((module) => module.jobs.map((job): [string, string] => [job.name, module.name])),
  );

  const providerOf = new Map<string, AnyModule>();
  for (const module of modules) {
    for (const port of module.provides) {
      const other = providerOf.get(port.name);
      if (other) throw new ModuleGraphError(`Port "${port.name}" is provided by two modules: ${other.name} and ${module.name}.`);
      providerOf.set(port.name, module);
    }
  }
  const dependencies = new Map<AnyModule, AnyModule[]>();
  for (const module of modules) {
    dependencies.set(
      module,
      module.requires.map((port) => {
        const provider = providerOf.get(port.name);
        if (!provider) throw new ModuleGraphError(`Module "${module.name}" requires port "${port.name}", which no module provides.`);
        if (provider === module) throw new ModuleGraphError(`Module "${module.name}" requires port "${port.name}", which it provides itself.`);
        return provider;
      }),
    );
  }

  const ordered: AnyModule[] = [];
  const state = new Map<AnyModule, 'visiting' | 'done'>();
  const path: AnyModule[] = [];
  const visit = (module: AnyModule): void => {
    const seen = state.get(module);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      const cycle = [...path.slice(path.indexOf(module)), module].map((entry) => entry.name);
      throw new ModuleGraphError(
        `Modules depend on each other in a cycle: ${cycle.join(' -> ')}. Break it with a port the later module provides, or an event the earlier one publishes.`,
      );
    }
    state.set(module, 'visiting');
    path.push(module);
    for (const dependency of dependencies.get(module) ?? []) visit(dependency);
    path.pop();
    state.set(module, 'done');
    ordered.push(module);
  };
  for (const module of modules) visit(module);
  return ordered;
}

function firstDuplicate(claims: [key: string, owner: string][]): { key: string; owners: string[] } | undefined {
  const owners = new Map<string, string[]>();
  for (const [key, owner] of claims) owners.set(key, [...(owners.get(key) ?? []), owner]);
  for (const [key, list] of owners) if (list.length > 1) return { key, owners: list };
  return undefined;
}
