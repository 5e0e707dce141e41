import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { AnyJobDefinition, JobKind } from '../platform/jobs/jobs.types.js';
import type { Logger } from '../platform/logger.js';
import type { Platform } from '../platform/platform.js';

/**
 * A capability one module offers the others, named once and typed by its interface. The
 * provider binds a value to it; a module that requires it receives that value and nothing else
 * of the provider (Navidrome's model interfaces, with the wiring as data).
 */
export interface Port<T> {
  readonly name: string;
  /** One line for the features README: what a requirer may do with it. */
  readonly summary: string;
  /** Carries T for the type checker only; never set. */
  readonly type?: (value: T) => T;
}

export function definePort<T>(name: string, summary: string): Port<T> {
  return { name, summary };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of ports of differing interfaces; each is typed where it is used
export type AnyPort = Port<any>;

/** A port and the value its provider gives it. */
export interface PortBinding {
  port: AnyPort;
  value: unknown;
}

export function bind<T>(port: Port<T>, value: T): PortBinding {
  return { port, value };
}

/** A step of the hourly clean-up: removes what expired of the module's own data. */
export interface MaintenanceStep {
  name: string;
  run(): Promise<unknown>;
}

/** What a module's setup hands to the app and the worker. */
export interface ModuleParts {
  /** A value for every port the manifest provides. */
  ports?: PortBinding[];
  /** The module's HTTP routes, registered under /api as a named plugin. */
  routes?: FastifyPluginAsyncZod;
  /**
   * Routes served at the server's root, outside /api: a second API with its own paths and
   * conventions (the Subsonic API's /rest). Registered after the /api routes, encapsulated.
   */
  rootRoutes?: FastifyPluginAsyncZod;
  /** Handlers of the jobs the manifest declares (the same names, no others). */
  jobs?: AnyJobDefinition[];
  maintenance?: MaintenanceStep[];
  /** Entries the module adds to GET /api/health (read at each call; a failure leaves them out). */
  health?: () => Promise<Record<string, unknown>>;
  /** Runs once on every serving process after the jobs are registered (queue a backfill, say). */
  start?: () => Promise<void>;
  /** Ends what `start` began (timers, watchers), before the platform closes. */
  stop?: () => Promise<void>;
  /** Services the composition root and the tests may reach; other modules never see them. */
  internals?: object;
}

/** What a module's setup receives: the platform, and the ports its manifest requires. */
export interface ModuleContext {
  platform: Platform;
  logger: Logger;
  /** The origin links in mail and exports point at (PUBLIC_URL, or this machine's port). */
  publicUrl: string;
  /** The value bound to a required port; asking for a port the manifest does not require throws. */
  use<T>(port: Port<T>): T;
}

/**
 * A module's manifest: what it is made of, as data the app, the worker, the OpenAPI document,
 * the features README and the tests read, plus the setup that builds it on the platform.
 */
export interface ModuleManifest<Parts extends ModuleParts = ModuleParts> {
  /** Also the Fastify plugin's name (`encore-<name>`) and the OpenAPI tag group. */
  name: string;
  summary: string;
  requires: readonly AnyPort[];
  provides: readonly AnyPort[];
  /** Tables only this module's repository reads and writes (its `<name>.schema.ts`). */
  tables: readonly PgTable[];
  /** The jobs it declares; every process registers them. */
  jobs: readonly JobKind<unknown>[];
  /** The environment variables it reads (parsed in config.ts). */
  settings: readonly string[];
  /** OpenAPI tags of its routes. */
  tags: readonly string[];
  /**
   * The texts its answers carry (English, the spec's words, kept in `common/` beside its
   * contract); the web app's catalogue of the same feature translates those it shows.
   */
  messages?: Readonly<Record<string, string>>;
  setup(context: ModuleContext): Parts | Promise<Parts>;
}

/** Declares a module; the parts' type is kept so tests can reach a module's internals typed. */
export function defineModule<Parts extends ModuleParts>(manifest: ModuleManifest<Parts>): ModuleManifest<Parts> {
  return manifest;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of modules of differing parts; each is typed where it is declared
export type AnyModule = ModuleManifest<any>;
