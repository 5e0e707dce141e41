import { eq } from 'drizzle-orm';
import type { Db } from '../../../src/platform/db/database.js';
import { toyNotes } from './toy.schema.js';

export type ToyNote = typeof toyNotes.$inferSelect;

export class ToyRepository {
  constructor(private readonly db: Db) {}

  async insert(songId: number, text: string): Promise<ToyNote> {
    const [row] = await this.db.insert(toyNotes).values({ songId, text }).returning();
    if (!row) throw new Error('insert returned nothing');
    return row;
  }

  async find(id: number): Promise<ToyNote | undefined> {
    const [row] = await this.db.select().from(toyNotes).where(eq(toyNotes.id, id));
    return row;
  }

  async shout(id: number): Promise<void> {
    const note = await this.find(id);
    if (note) await this.db.update(toyNotes).set({ shouted: note.text.toUpperCase() }).where(eq(toyNotes.id, id));
  }
}
