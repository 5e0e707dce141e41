const MAX_NAME = 120;

/**
 * A storage-safe version of a person's file name: the base name only, accents folded, anything
 * outside `[A-Za-z0-9._-]` made `_`, never starting with a dot, the extension kept when the
 * name is shortened. The original name is kept separately for downloads.
 */
export function safeFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const rawExtension = dot > 0 ? base.slice(dot + 1) : '';
  const extension = /^[A-Za-z0-9]{1,8}$/.test(rawExtension) ? `.${rawExtension}` : '';
  const stem = (extension ? base.slice(0, dot) : base)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[._-]+/, '')
    .slice(0, MAX_NAME - extension.length)
    .replace(/[._-]+$/, '');
  return `${stem || 'audio'}${extension}`;
}
