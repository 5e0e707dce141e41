/**
 * `Content-Disposition: attachment` for a download name, per RFC 6266: an ASCII `filename`
 * for old clients plus `filename*` (RFC 8187, UTF-8) that modern browsers prefer.
 */
export function attachmentDisposition(downloadName: string): string {
  const name = sanitizeName(downloadName);
  return `attachment; filename="${asciiFallback(name)}"; filename*=UTF-8''${encodeRfc8187(name)}`;
}

function sanitizeName(name: string): string {
  // Path separators and control characters never belong in a suggested file name.
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim();
  return cleaned.length > 0 ? cleaned : 'download';
}

function asciiFallback(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\%]/g, '_');
}

/** Percent-encodes everything outside RFC 8187's attr-char set. */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
