import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { idField, text } from './input.contract.js';

/**
 * Internet radio (issue 41): HTTP audio streams the instance's admins list. Everyone signed in
 * lists and plays them; the server reads a station's ICY metadata for the web app, which an
 * <audio> element cannot.
 */

export const RADIO_NAME_MAX = 200;
export const RADIO_URL_MAX = 2000;

export const radioStation = z.object({
  id: z.number().int(),
  name: z.string(),
  streamUrl: z.string(),
  homepageUrl: z.string().nullable(),
});
export type RadioStation = z.infer<typeof radioStation>;

export const radioStationsResponse = z.object({
  stations: z.array(radioStation),
  /** Whether the caller may add, change and delete stations (an admin). */
  canManage: z.boolean(),
});
export type RadioStationsResponse = z.infer<typeof radioStationsResponse>;

/** The server checks names and addresses by Subsonic's rules too (http or https only): one set of messages. */
export const saveRadioStationBody = z.object({
  name: text('The station name', 'Please enter a station name').max(RADIO_NAME_MAX, {
    error: `The station name can be at most ${RADIO_NAME_MAX} characters`,
  }),
  streamUrl: text('The stream URL', 'Please enter the stream URL').max(RADIO_URL_MAX, {
    error: `The stream URL can be at most ${RADIO_URL_MAX} characters`,
  }),
  homepageUrl: text('The home page URL')
    .max(RADIO_URL_MAX, { error: `The home page URL can be at most ${RADIO_URL_MAX} characters` })
    .nullish()
    .transform((value) => (value ? value : null)),
});
export type SaveRadioStationBody = z.input<typeof saveRadioStationBody>;

export const radioStationIdParams = z.object({ id: idField('The station id') });

/** What the station plays now, from its stream's ICY metadata; null when it sends none (or could not be read). */
export const radioNowPlaying = z.object({ title: z.string().nullable() });
export type RadioNowPlaying = z.infer<typeof radioNowPlaying>;

const tags = ['radio'];

export const radioEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/radio-stations',
    response: radioStationsResponse,
    summary: "The instance's internet radio stations, by name",
    tags,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/radio-stations',
    body: saveRadioStationBody,
    response: radioStation,
    status: 201,
    summary: 'Add a radio station (admins)',
    tags,
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: '/radio-stations/:id',
    params: radioStationIdParams,
    body: saveRadioStationBody,
    response: radioStation,
    summary: "Change a radio station's name and addresses (admins)",
    tags,
  }),
  delete: defineEndpoint({
    method: 'DELETE',
    path: '/radio-stations/:id',
    params: radioStationIdParams,
    status: 204,
    summary: 'Delete a radio station (admins)',
    tags,
  }),
  nowPlaying: defineEndpoint({
    method: 'GET',
    path: '/radio-stations/:id/now-playing',
    params: radioStationIdParams,
    response: radioNowPlaying,
    summary: "The title a station's stream announces now (its ICY metadata)",
    tags,
  }),
};
