import { definePort } from '../../modules/module.js';

export interface RadioStationRecord {
  id: number;
  name: string;
  streamUrl: string;
  homepageUrl: string | null;
}

export interface RadioStationInput {
  name: string;
  streamUrl: string;
  homepageUrl: string | null;
}

/**
 * The instance's internet radio stations: everyone signed in lists them, only admins change
 * them (ForbiddenError otherwise). Names and URLs are checked (ValidationError); an unknown id
 * is a NotFoundError.
 */
export interface RadioStations {
  list(): Promise<RadioStationRecord[]>;
  create(actorId: number, input: RadioStationInput): Promise<RadioStationRecord>;
  update(actorId: number, id: number, input: RadioStationInput): Promise<RadioStationRecord>;
  delete(actorId: number, id: number): Promise<void>;
}

export const radioStationsPort = definePort<RadioStations>('radio-stations', "The instance's internet radio stations: listed by all, changed by admins.");
