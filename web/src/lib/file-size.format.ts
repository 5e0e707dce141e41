import { formatQuantity } from './ltr-run.format';

const KB = 1024;
const MB = 1024 * 1024;

/**
 * A file size as B, KB or MB with one decimal, switching at 1024 and 1048576 bytes (SPEC 9), as
 * an isolated left-to-right run so it reads "5.3 MB" in a Hebrew sentence too.
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return formatQuantity(0, 'B');
  if (bytes < KB) return formatQuantity(Math.round(bytes), 'B');
  if (bytes < MB) return formatQuantity(bytes / KB, 'KB', { fractionDigits: 1 });
  return formatQuantity(bytes / MB, 'MB', { fractionDigits: 1 });
}
