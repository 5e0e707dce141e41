import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ffmpegFeatures, type FfmpegFeature } from '@encore/common/http.contract';

const run = promisify(execFile);
const LIST_TIMEOUT_MS = 15_000;

/** What a binary can do, read once from `-filters` and `-encoders`. */
export interface FfmpegCapabilities {
  filters: ReadonlySet<string>;
  encoders: ReadonlySet<string>;
  /** The features media work relies on that this binary does not have. */
  lacks: FfmpegFeature[];
}

const FILTER_FEATURES: ReadonlySet<FfmpegFeature> = new Set(['xfade', 'subtitles', 'ass']);

export async function readCapabilities(binary: string): Promise<FfmpegCapabilities> {
  const [filters, encoders] = await Promise.all([
    run(binary, ['-hide_banner', '-nostdin', '-filters'], { timeout: LIST_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }),
    run(binary, ['-hide_banner', '-nostdin', '-encoders'], { timeout: LIST_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }),
  ]);
  return capabilitiesFrom(filters.stdout, encoders.stdout);
}

export function capabilitiesFrom(filtersListing: string, encodersListing: string): FfmpegCapabilities {
  return capabilitiesOf(parseFilters(filtersListing), parseEncoders(encodersListing));
}

/** The capabilities of a binary with these filters and encoders. */
export function capabilitiesOf(filters: ReadonlySet<string>, encoders: ReadonlySet<string>): FfmpegCapabilities {
  const lacks = ffmpegFeatures.filter((feature) => !(FILTER_FEATURES.has(feature) ? filters : encoders).has(feature));
  return { filters, encoders, lacks };
}

/** ` TSC xfade             VV->V      Cross fade…`: flags (2 or 3 columns), name, pads. */
export function parseFilters(listing: string): Set<string> {
  const names = new Set<string>();
  for (const line of listing.split('\n')) {
    const match = /^ [A-Z.|]{2,3} (\S+)\s+\S*->\S*\s/.exec(line);
    if (match?.[1]) names.add(match[1]);
  }
  return names;
}

/** ` V....D libx264   …`: six flag columns (type first), then the name; the legend comes before `------`. */
export function parseEncoders(listing: string): Set<string> {
  const names = new Set<string>();
  const body = listing.slice(Math.max(0, listing.indexOf('------')));
  for (const line of body.split('\n')) {
    const match = /^ [VAS][A-Z.]{5} (\S+)/.exec(line);
    if (match?.[1]) names.add(match[1]);
  }
  return names;
}
