const KB = 1024;
const MB = 1024 * 1024;

/** A file size as B, KB or MB with one decimal, switching at 1024 and 1048576 bytes (SPEC 9). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '0 B';
  if (bytes < KB) return `${Math.round(bytes)} B`;
  if (bytes < MB) return `${(bytes / KB).toFixed(1)} KB`;
  return `${(bytes / MB).toFixed(1)} MB`;
}
