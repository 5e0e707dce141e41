import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors/app-errors.js';
import type { RadioStationInput, RadioStationRecord, RadioStations } from './radio.port.js';
import type { RadioRepository } from './radio.repository.js';

const MAX_NAME = 200;
const MAX_URL = 2000;
const STATION_NOT_FOUND = 'Radio station not found';

/** A station's name and URLs by the rules: a name, http(s) addresses only (no file:, no javascript:). */
export function validStation(input: RadioStationInput): RadioStationInput {
  const name = input.name.trim();
  if (name === '') throw new ValidationError('A radio station needs a name');
  if (name.length > MAX_NAME) throw new ValidationError(`A radio station's name holds at most ${MAX_NAME} characters`);
  return {
    name,
    streamUrl: httpUrl(input.streamUrl, 'stream URL'),
    homepageUrl: input.homepageUrl === null || input.homepageUrl.trim() === '' ? null : httpUrl(input.homepageUrl, 'home page URL'),
  };
}

function httpUrl(raw: string, what: string): string {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ValidationError(`The ${what} is not a web address: ${text.slice(0, 100)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError(`The ${what} must start with http:// or https://`);
  if (text.length > MAX_URL) throw new ValidationError(`The ${what} holds at most ${MAX_URL} characters`);
  return url.toString();
}

/** Stations: listed by everyone, changed by admins only. */
export class RadioService implements RadioStations {
  constructor(
    private readonly repository: RadioRepository,
    private readonly isAdmin: (userId: number) => Promise<boolean>,
  ) {}

  list(): Promise<RadioStationRecord[]> {
    return this.repository.list();
  }

  async get(id: number): Promise<RadioStationRecord> {
    const station = await this.repository.get(id);
    if (!station) throw new NotFoundError(STATION_NOT_FOUND);
    return station;
  }

  /** Whether the user may add, change and delete stations. */
  canManage(userId: number): Promise<boolean> {
    return this.isAdmin(userId);
  }

  async create(actorId: number, input: RadioStationInput): Promise<RadioStationRecord> {
    const station = validStation(input);
    await this.assertAdmin(actorId);
    return this.repository.create(station);
  }

  async update(actorId: number, id: number, input: RadioStationInput): Promise<RadioStationRecord> {
    const station = validStation(input);
    await this.assertAdmin(actorId);
    const updated = await this.repository.update(id, station);
    if (!updated) throw new NotFoundError(STATION_NOT_FOUND);
    return updated;
  }

  async delete(actorId: number, id: number): Promise<void> {
    await this.assertAdmin(actorId);
    if (!(await this.repository.delete(id))) throw new NotFoundError(STATION_NOT_FOUND);
  }

  private async assertAdmin(userId: number): Promise<void> {
    if (!(await this.isAdmin(userId))) throw new ForbiddenError('Only an admin can change the radio stations');
  }
}
