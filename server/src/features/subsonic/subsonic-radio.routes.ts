import type { RadioStationRecord, RadioStations } from '../radio/radio.port.js';
import type { SubsonicEndpoint } from './subsonic-endpoint.routes.js';
import { notFound } from './subsonic-errors.js';
import { songIdOf, type SubsonicParams } from './subsonic-params.js';
import type { SubsonicObject } from './subsonic-response.js';

const element = (station: RadioStationRecord): SubsonicObject => ({
  id: String(station.id),
  name: station.name,
  streamUrl: station.streamUrl,
  homePageUrl: station.homepageUrl ?? undefined,
});

/** A station's id as a number; anything else names no station (70). */
function stationIdOf(raw: string): number {
  const id = songIdOf(raw);
  if (id === undefined) throw notFound('Radio station');
  return id;
}

/** The station's fields of a create or update call (`homepageUrl` as the spec spells it; `homePageUrl` too). */
function stationOf(params: SubsonicParams): { name: string; streamUrl: string; homepageUrl: string | null } {
  return { name: params.require('name'), streamUrl: params.require('streamUrl'), homepageUrl: params.get('homepageUrl') ?? params.get('homePageUrl') ?? null };
}

/** Internet radio: everyone lists the stations; admins add, change and remove them (error 50 for others). */
export function radioEndpoints(radio: RadioStations): SubsonicEndpoint[] {
  return [
    { name: 'getInternetRadioStations', handle: async () => ({ internetRadioStations: { internetRadioStation: (await radio.list()).map(element) } }) },
    {
      name: 'createInternetRadioStation',
      handle: async ({ params, user }) => {
        await radio.create(user.id, stationOf(params));
        return {};
      },
    },
    {
      name: 'updateInternetRadioStation',
      handle: async ({ params, user }) => {
        const id = stationIdOf(params.require('id'));
        await radio.update(user.id, id, stationOf(params));
        return {};
      },
    },
    {
      name: 'deleteInternetRadioStation',
      handle: async ({ params, user }) => {
        await radio.delete(user.id, stationIdOf(params.require('id')));
        return {};
      },
    },
  ];
}
