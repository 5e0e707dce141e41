import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { StartedModule, StartedModules } from './module-runtime.js';

/** The Fastify plugin name of a module. */
export const pluginName = (moduleName: string): string => `encore-${moduleName}`;

/**
 * A module as a named, encapsulated Fastify plugin whose dependencies are the modules that
 * provide what it requires: Fastify itself refuses to register one before its providers.
 * Every module gets one, with routes or without, so the names its requirers depend on exist.
 */
export function namedModulePlugin(started: StartedModule, modules: StartedModules): FastifyPluginAsyncZod {
  const { manifest, parts } = started;
  const required = new Set(manifest.requires.map((port) => port.name));
  const dependencies = modules.list
    .filter((other) => other.manifest.provides.some((port) => required.has(port.name)))
    .map((other) => pluginName(other.manifest.name));
  const plugin: FastifyPluginAsyncZod = async (app, options) => {
    if (parts.routes) await parts.routes(app, options);
  };
  return Object.assign(plugin, {
    [Symbol.for('plugin-meta')]: { name: pluginName(manifest.name), dependencies },
    [Symbol.for('fastify.display-name')]: pluginName(manifest.name),
  });
}

/** OpenAPI's tag list: each module's tags, described by its summary. */
export function openApiTags(modules: StartedModules): { name: string; description: string }[] {
  return modules.list.flatMap(({ manifest }) => manifest.tags.map((name) => ({ name, description: manifest.summary })));
}
