import { z } from 'zod';

/** Every error answer of the API (DECISIONS, wire contract). */
export const errorResponse = z.object({ message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const componentHealth = z.object({
  status: z.enum(['ok', 'error']),
  driver: z.string(),
  detail: z.string().optional(),
});

export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptimeSeconds: z.number(),
  database: componentHealth,
  storage: componentHealth,
  jobs: componentHealth,
  mail: componentHealth,
});
export type HealthResponse = z.infer<typeof healthResponse>;

/** What the web app needs to know about the server's configuration. */
export const clientConfigResponse = z.object({
  googleClientId: z.string().nullable(),
  maxUploadMb: z.number(),
});
export type ClientConfigResponse = z.infer<typeof clientConfigResponse>;
