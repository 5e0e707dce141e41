import type { z } from 'zod';

/**
 * One endpoint of the API, declared once: the server registers its route (and OpenAPI its
 * operation) from it, and the web client builds its calls from it. Paths are relative to /api.
 *
 * An endpoint whose answer is not JSON (a download, an image, an event stream) declares no
 * `response`: the server sends its bytes as they are and the web reads them as a Blob. One
 * whose request is multipart declares `multipart: true` and no `body`: the server reads the
 * parts itself and the web sends a FormData.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The success statuses of a JSON (or empty) answer. */
export type SuccessStatus = 200 | 201 | 202 | 204;

/** The parameter names of a path template: '/playlists/:id/songs/:songId' gives 'id' | 'songId'. */
export type PathParamNames<Path extends string> = Path extends `${string}:${infer Param}/${infer Rest}`
  ? Param | PathParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Param}`
    ? Param
    : never;

/** A params schema must name every parameter of its path (it may validate each its own way). */
type ParamsSchema<Path extends string> = z.ZodType<Record<PathParamNames<Path>, unknown>>;

export interface Endpoint<
  Method extends HttpMethod = HttpMethod,
  Path extends string = string,
  Params extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Response extends z.ZodType | undefined = z.ZodType | undefined,
  Status extends SuccessStatus = SuccessStatus,
  Multipart extends boolean = boolean,
> {
  readonly method: Method;
  readonly path: Path;
  readonly params: Params;
  readonly query: Query;
  readonly body: Body;
  /** The success body; absent for a binary or streamed answer and for 204. */
  readonly response: Response;
  readonly status: Status;
  readonly multipart: Multipart;
  readonly summary: string;
  readonly description: string | undefined;
  readonly tags: readonly string[];
}

export interface EndpointDeclaration<
  Method extends HttpMethod,
  Path extends string,
  Params extends ParamsSchema<Path> | undefined,
  Query extends z.ZodType | undefined,
  Body extends z.ZodType | undefined,
  Response extends z.ZodType | undefined,
  Status extends SuccessStatus,
  Multipart extends boolean,
> {
  method: Method;
  /** Express-style template: `/playlists/:id`. */
  path: Path;
  params?: Params;
  query?: Query;
  body?: Body;
  response?: Response;
  /** 200 unless said otherwise. */
  status?: Status;
  multipart?: Multipart;
  summary: string;
  description?: string;
  tags: readonly string[];
}

export function defineEndpoint<
  const Method extends HttpMethod,
  const Path extends string,
  Params extends ParamsSchema<Path> | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
  Response extends z.ZodType | undefined = undefined,
  const Status extends SuccessStatus = 200,
  const Multipart extends boolean = false,
>(
  declaration: EndpointDeclaration<Method, Path, Params, Query, Body, Response, Status, Multipart>,
): Endpoint<Method, Path, Params, Query, Body, Response, Status, Multipart> {
  return {
    method: declaration.method,
    path: declaration.path,
    params: declaration.params as Params,
    query: declaration.query as Query,
    body: declaration.body as Body,
    response: declaration.response as Response,
    status: (declaration.status ?? 200) as Status,
    multipart: (declaration.multipart ?? false) as Multipart,
    summary: declaration.summary,
    description: declaration.description,
    tags: declaration.tags,
  };
}

/** A value a path or query parameter can take on the wire. */
export type ParamValue = string | number;
export type QueryValue = string | number | boolean | null | undefined;

/** What a caller gives for the path parameters: one value per `:name` of the template. */
export type PathParams<Path extends string> = { [Name in PathParamNames<Path>]: ParamValue };

/**
 * The path with its parameters filled in, each percent-encoded as one segment (a `/` or `?`
 * in a value stays inside its segment). A parameter left out is an error, not "undefined".
 */
export function fillPath<Path extends string>(path: Path, params: PathParams<Path>): string {
  const values = params as Record<string, ParamValue | undefined>;
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`The path ${path} needs a value for :${name}`);
    return encodeURIComponent(String(value));
  });
}
