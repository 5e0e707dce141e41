/** One song line of an M3U or M3U8 file, with what the `#EXTINF` line before it said. */
export interface M3uEntry {
  /** The line as the file wrote it (a path, relative or absolute, or a URL). */
  location: string;
  /** The last segment of its path, decoded; undefined when the path ends with no name. */
  fileName: string | undefined;
  /** From `#EXTINF`: undefined when absent or not positive (-1 means unknown). */
  durationSeconds: number | undefined;
  /** From `#EXTINF`'s "Artist - Title"; undefined without the " - ". */
  artist: string | undefined;
  title: string | undefined;
  /** How a report names the entry: its `#EXTINF` title, else its location. */
  label: string;
}

/** Control characters no text playlist holds (tab, line feed and carriage return are fine): a binary file's. */
// eslint-disable-next-line no-control-regex -- finding them is the point
const BINARY = /[\u0000-\u0008\u000B\u000E-\u001F\u007F]/;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const EXTINF = /^#EXTINF\s*:/i;

/**
 * The entries of an M3U or M3U8 file's text, in file order; undefined when the text is not a
 * playlist (binary, HTML or XML). `#EXTM3U` is optional; other `#` lines are comments; a BOM,
 * CRLF or CR line ends and blank lines are taken as they come.
 */
export function parseM3u(text: string): M3uEntry[] | undefined {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (BINARY.test(body)) return undefined;
  const lines = body.split(/\r\n|\r|\n/).map((line) => line.trim());
  const first = lines.find((line) => line.length > 0);
  if (first === undefined || first.startsWith('<')) return undefined;
  const entries: M3uEntry[] = [];
  let info: ExtInf | undefined;
  for (const line of lines) {
    if (line.length === 0) continue;
    if (line.startsWith('#')) {
      if (EXTINF.test(line)) info = parseExtInf(line.replace(EXTINF, ''));
      continue;
    }
    entries.push({
      location: line,
      fileName: fileNameOf(line),
      durationSeconds: info?.durationSeconds,
      artist: info?.artist,
      title: info?.title,
      label: info?.label || line,
    });
    info = undefined;
  }
  return entries;
}

interface ExtInf {
  durationSeconds: number | undefined;
  artist: string | undefined;
  title: string | undefined;
  label: string;
}

/** `<duration>[ key="value"…],<title>`: the title starts after the first comma outside quotes. */
function parseExtInf(rest: string): ExtInf {
  let quoted = false;
  let comma = -1;
  for (let index = 0; index < rest.length; index += 1) {
    const char = rest[index];
    if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      comma = index;
      break;
    }
  }
  const head = comma < 0 ? rest : rest.slice(0, comma);
  const label = comma < 0 ? '' : rest.slice(comma + 1).trim();
  const seconds = Number.parseFloat(head.trim());
  const durationSeconds = Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
  const dash = label.indexOf(' - ');
  if (dash < 0) return { durationSeconds, artist: undefined, title: undefined, label };
  const artist = label.slice(0, dash).trim();
  const title = label.slice(dash + 3).trim();
  return artist && title ? { durationSeconds, artist, title, label } : { durationSeconds, artist: undefined, title: undefined, label };
}

/** The last segment of a URL's path or of a file path (`/` or Windows `\`), percent-decoded where it is encoded. */
function fileNameOf(location: string): string | undefined {
  let path = location;
  if (URL_SCHEME.test(location)) {
    try {
      path = new URL(location).pathname;
    } catch {
      return undefined;
    }
  }
  const name = path.replace(/\\/g, '/').split('/').pop()?.trim();
  if (!name) return undefined;
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
