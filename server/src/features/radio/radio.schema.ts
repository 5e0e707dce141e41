// Table of the radio module; only radio.repository.ts reads or writes it.
import { pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** An internet radio station of the instance (an HTTP audio stream), as its admins list it. */
export const radioStations = pgTable('radio_stations', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  streamUrl: text('stream_url').notNull(),
  homepageUrl: text('homepage_url'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
