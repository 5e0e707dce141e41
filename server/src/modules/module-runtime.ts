import type { AnyJobDefinition } from '../platform/jobs/jobs.types.js';
import type { Logger } from '../platform/logger.js';
import type { Platform } from '../platform/platform.js';
import type { AnyModule, MaintenanceStep, ModuleManifest, ModuleParts, Port } from './module.js';
import { ModuleGraphError, orderModules } from './module-graph.js';

/** One module as built on this process. */
export interface StartedModule {
  manifest: AnyModule;
  parts: ModuleParts;
}

/** The modules of a process, built in dependency order on one platform. */
export class StartedModules {
  private readonly byName = new Map<string, StartedModule>();
  private readonly ports = new Map<string, unknown>();

  private constructor(
    readonly list: readonly StartedModule[],
    ports: Map<string, unknown>,
  ) {
    for (const entry of list) this.byName.set(entry.manifest.name, entry);
    this.ports = ports;
  }

  /**
   * Builds every module after the providers of what it requires. Each setup sees only the
   * ports its manifest requires; each must bind every port it provides and handle exactly the
   * jobs it declares.
   */
  static async start(modules: readonly AnyModule[], platform: Platform, logger: Logger): Promise<StartedModules> {
    const ordered = orderModules(modules);
    const publicUrl = platform.config.publicUrl ?? `http://localhost:${platform.config.port}`;
    const bound = new Map<string, unknown>();
    const started: StartedModule[] = [];
    for (const manifest of ordered) {
      const allowed = new Set(manifest.requires.map((port) => port.name));
      const parts: ModuleParts = await manifest.setup({
        platform,
        logger,
        publicUrl,
        use<T>(port: Port<T>): T {
          if (!allowed.has(port.name)) throw new ModuleGraphError(`Module "${manifest.name}" uses port "${port.name}" without requiring it in its manifest.`);
          return bound.get(port.name) as T;
        },
      });
      checkParts(manifest, parts);
      for (const binding of parts.ports ?? []) bound.set(binding.port.name, binding.value);
      started.push({ manifest, parts });
    }
    return new StartedModules(started, bound);
  }

  /** The value a module bound to a port (the composition root's way in: authentication, say). */
  port<T>(port: Port<T>): T {
    if (!this.ports.has(port.name)) throw new ModuleGraphError(`No module provides port "${port.name}".`);
    return this.ports.get(port.name) as T;
  }

  /** A module's internals, typed by its manifest: for the composition root and the tests. */
  internals<Parts extends ModuleParts>(manifest: ModuleManifest<Parts>): NonNullable<Parts['internals']> {
    const entry = this.byName.get(manifest.name);
    const internals = entry?.parts.internals;
    if (!internals) throw new ModuleGraphError(`Module "${manifest.name}" is not started here or has no internals.`);
    return internals as NonNullable<Parts['internals']>;
  }

  jobs(): AnyJobDefinition[] {
    return this.list.flatMap((entry) => entry.parts.jobs ?? []);
  }

  maintenance(): MaintenanceStep[] {
    return this.list.flatMap((entry) => (entry.parts.maintenance ?? []).map((step) => ({ name: `${entry.manifest.name}: ${step.name}`, run: step.run })));
  }

  /** What the modules add to the health answer; a module whose check fails adds nothing. */
  async health(): Promise<Record<string, unknown>> {
    const entries = await Promise.all(this.list.map((entry) => entry.parts.health?.().catch(() => undefined)));
    return Object.assign({}, ...entries.filter(Boolean)) as Record<string, unknown>;
  }

  /** The start-up work of every module, in dependency order. */
  async start(): Promise<void> {
    for (const entry of this.list) await entry.parts.start?.();
  }

  /** Ends what the modules started, in reverse order; a failure is logged by the caller and the others still stop. */
  async stop(): Promise<void> {
    const errors: unknown[] = [];
    for (const entry of [...this.list].reverse()) await entry.parts.stop?.().catch((error: unknown) => errors.push(error));
    if (errors.length > 0) throw errors[0];
  }
}

function checkParts(manifest: AnyModule, parts: ModuleParts): void {
  const bound = new Set((parts.ports ?? []).map((binding) => binding.port.name));
  for (const port of manifest.provides) {
    if (!bound.has(port.name))
      throw new ModuleGraphError(`Module "${manifest.name}" provides port "${port.name}" in its manifest but its setup binds no value to it.`);
  }
  for (const name of bound) {
    if (!manifest.provides.some((port) => port.name === name))
      throw new ModuleGraphError(`Module "${manifest.name}" binds port "${name}", which its manifest does not provide.`);
  }
  const declared = new Set(manifest.jobs.map((job) => job.name));
  const handled = new Set((parts.jobs ?? []).map((job) => job.name));
  for (const name of declared)
    if (!handled.has(name)) throw new ModuleGraphError(`Module "${manifest.name}" declares job "${name}" but its setup gives no handler for it.`);
  for (const name of handled)
    if (!declared.has(name)) throw new ModuleGraphError(`Module "${manifest.name}" handles job "${name}", which its manifest does not declare.`);
}
