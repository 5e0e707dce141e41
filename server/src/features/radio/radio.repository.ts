import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import type { RadioStationInput, RadioStationRecord } from './radio.port.js';
import { radioStations } from './radio.schema.js';

const columns = { id: radioStations.id, name: radioStations.name, streamUrl: radioStations.streamUrl, homepageUrl: radioStations.homepageUrl };

/** The only code of the radio feature that touches the database. */
export class RadioRepository {
  constructor(private readonly db: Db) {}

  list(): Promise<RadioStationRecord[]> {
    return this.db
      .select(columns)
      .from(radioStations)
      .orderBy(asc(sql`lower(${radioStations.name})`), asc(radioStations.id));
  }

  async get(id: number): Promise<RadioStationRecord | undefined> {
    const [row] = await this.db.select(columns).from(radioStations).where(eq(radioStations.id, id));
    return row;
  }

  async create(input: RadioStationInput): Promise<RadioStationRecord> {
    const [row] = await this.db.insert(radioStations).values(input).returning(columns);
    if (!row) throw new Error('the station was not written');
    return row;
  }

  async update(id: number, input: RadioStationInput): Promise<RadioStationRecord | undefined> {
    const [row] = await this.db
      .update(radioStations)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(radioStations.id, id))
      .returning(columns);
    return row;
  }

  async delete(id: number): Promise<boolean> {
    return (await this.db.delete(radioStations).where(eq(radioStations.id, id)).returning({ id: radioStations.id })).length > 0;
  }
}
