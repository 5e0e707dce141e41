import type { Config } from '../../config.js';

/** The origins signed storage URLs point at: none for local storage (Encore serves them), the bucket's for S3. */
export function storageOrigins(config: Pick<Config, 'storage'>): string[] {
  if (config.storage.driver !== 's3') return [];
  if (config.storage.endpoint) return [new URL(config.storage.endpoint).origin];
  return [`https://${config.storage.bucket}.s3.${config.storage.region}.amazonaws.com`, `https://s3.${config.storage.region}.amazonaws.com`];
}
