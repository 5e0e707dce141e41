import type { Logger } from '../../platform/logger.js';
import { readIcyTitle } from './icy-metadata.reader.js';
import type { RadioStationRecord } from './radio.port.js';

/** How long one read of a station's title answers everyone who asks. */
export const NOW_PLAYING_CACHE_MS = 10_000;

interface Cached {
  streamUrl: string;
  at: number;
  title: Promise<string | null>;
}

/**
 * What each station plays now, for the web app (an <audio> element cannot read ICY metadata).
 * One upstream read per station answers every listener for NOW_PLAYING_CACHE_MS, the read in
 * progress included; a station that cannot be read plays "nothing known" (null) for as long.
 */
export class RadioNowPlaying {
  private readonly cache = new Map<number, Cached>();

  constructor(
    private readonly station: (id: number) => Promise<RadioStationRecord>,
    private readonly logger: Logger,
    private readonly read: (url: string) => Promise<string | null> = (url) => readIcyTitle(url),
    private readonly now: () => number = () => Date.now(),
  ) {}

  async title(id: number): Promise<string | null> {
    const { streamUrl } = await this.station(id);
    const at = this.now();
    const cached = this.cache.get(id);
    if (cached && cached.streamUrl === streamUrl && at - cached.at < NOW_PLAYING_CACHE_MS) return cached.title;
    for (const [key, entry] of this.cache) if (at - entry.at >= NOW_PLAYING_CACHE_MS) this.cache.delete(key);
    const title = this.read(streamUrl).catch((error: unknown) => {
      this.logger.warn({ stationId: id, err: error instanceof Error ? error.message : String(error) }, "a radio station's title could not be read");
      return null;
    });
    this.cache.set(id, { streamUrl, at, title });
    return title;
  }
}
