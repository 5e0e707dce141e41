import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RadioStation } from '@encore/common/radio.contract';
import { setLanguage } from '../../lib/i18n/i18n.store';
import { player } from '../../player/player.store';
import { stubFetch } from '../../test/fetch-stub';
import { filesRoute } from '../../test/files-route';
import { renderApp } from '../../test/render-app';
import { makeSongs, signInForTest } from '../../test/song-fixture';

const jazz: RadioStation = { id: 1, name: 'Jazz FM', streamUrl: 'http://127.0.0.1:9/jazz', homepageUrl: 'https://jazz.example/' };
const news: RadioStation = { id: 2, name: 'News 24', streamUrl: 'https://news.example/live', homepageUrl: null };

beforeEach(signInForTest);
afterEach(() => {
  act(() => setLanguage('en'));
});

const radioAudio = () => document.querySelector<HTMLAudioElement>('audio[data-encore-radio]')!;
const station = async (name: string) => screen.findByRole('article', { name });

describe('the Radio page', () => {
  it('lists the stations with their home pages, plays one live with its title and stops it; no admin buttons for a user', async () => {
    const { requests } = stubFetch({
      'GET /api/radio-stations': { body: { stations: [jazz, news], canManage: false } },
      'GET /api/radio-stations/1/now-playing': { body: { title: 'Miles Davis - So What' } },
    });
    const user = userEvent.setup();
    renderApp('/radio');
    expect(await screen.findByRole('heading', { level: 1, name: 'Radio' })).toBeInTheDocument();
    expect(document.title).toBe('Radio · Encore');
    const row = await station('Jazz FM');
    expect(within(row).getByRole('link', { name: 'Home page of Jazz FM (opens in a new tab)' })).toHaveAttribute('href', 'https://jazz.example/');
    expect(within(await station('News 24')).queryByRole('link')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add station' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Jazz FM' })).not.toBeInTheDocument();
    expect(requests.some((request) => request.path.includes('now-playing'))).toBe(false);

    await user.click(within(row).getByRole('button', { name: 'Play Jazz FM' }));
    expect(radioAudio().getAttribute('src')).toBe(jazz.streamUrl);
    expect(radioAudio().paused).toBe(false);
    expect(await within(row).findByText('Now playing: Miles Davis - So What')).toBeInTheDocument();
    expect(within(row).getByText('Live')).toBeInTheDocument();

    // Another station takes over; then Stop silences it and closes the stream.
    const other = await station('News 24');
    await user.click(within(other).getByRole('button', { name: 'Play News 24' }));
    expect(radioAudio().getAttribute('src')).toBe(news.streamUrl);
    expect(within(row).getByRole('button', { name: 'Play Jazz FM' })).toBeInTheDocument();
    await user.click(within(other).getByRole('button', { name: 'Stop News 24' }));
    expect(radioAudio().paused).toBe(true);
    expect(radioAudio().getAttribute('src')).toBeNull();
  });

  it('pauses the song player when a station starts, and stops the station when a song plays again', async () => {
    stubFetch({
      'GET /api/files': filesRoute(makeSongs(2)),
      'GET /api/files/1/play': { body: { url: '/stream/1' } },
      'GET /api/radio-stations': { body: { stations: [jazz], canManage: false } },
      'GET /api/radio-stations/1/now-playing': { body: { title: null } },
    });
    const user = userEvent.setup();
    const { router } = renderApp('/music');
    await user.click(await screen.findByRole('button', { name: 'Play Song 1' }));
    const songAudio = () => document.querySelector<HTMLAudioElement>('audio[data-encore-player]')!;
    await waitFor(() => expect(songAudio().getAttribute('src')).toBe('/stream/1'));
    act(() => {
      songAudio().dispatchEvent(new Event('loadedmetadata'));
    });
    const bar = screen.getByRole('region', { name: 'Player' });
    await waitFor(() => expect(within(bar).getByRole('button', { name: 'Pause' })).toBeEnabled());

    await act(() => router.navigate('/radio'));
    const row = await station('Jazz FM');
    await user.click(within(row).getByRole('button', { name: 'Play Jazz FM' }));
    expect(songAudio().paused).toBe(true);
    expect(radioAudio().paused).toBe(false);
    expect(await within(row).findByText('The station does not say what is playing.')).toBeInTheDocument();

    await user.click(within(bar).getByRole('button', { name: 'Play' }));
    expect(songAudio().paused).toBe(false);
    expect(within(row).getByRole('button', { name: 'Play Jazz FM' })).toBeInTheDocument();
    expect(radioAudio().paused).toBe(true);
    expect(radioAudio().getAttribute('src')).toBeNull();
  });

  it('keeps the station playing on other pages, shows it in a strip with its title and a way back, and stops it from there', async () => {
    stubFetch({
      'GET /api/files': filesRoute(makeSongs(2)),
      'GET /api/radio-stations': { body: { stations: [jazz, news], canManage: false } },
      'GET /api/radio-stations/1/now-playing': { body: { title: 'Miles Davis - So What' } },
    });
    const user = userEvent.setup();
    const { router } = renderApp('/radio');
    const element = radioAudio();
    await user.click(within(await station('Jazz FM')).getByRole('button', { name: 'Play Jazz FM' }));
    // On its own page, the rows show the station: no strip.
    expect(screen.queryByRole('region', { name: 'Radio playing' })).not.toBeInTheDocument();

    await act(() => router.navigate('/music'));
    expect(await screen.findByRole('button', { name: 'Play Song 1' })).toBeInTheDocument();
    // The same element plays the same stream: leaving the page did not stop it.
    expect(radioAudio()).toBe(element);
    expect(radioAudio().getAttribute('src')).toBe(jazz.streamUrl);
    expect(radioAudio().paused).toBe(false);
    const strip = await screen.findByRole('region', { name: 'Radio playing' });
    expect(within(strip).getByText('Jazz FM')).toBeInTheDocument();
    await waitFor(() => expect(within(strip).getByTestId('radio-strip-now-playing')).toHaveTextContent('Now playing: Miles Davis - So What'));

    // Its link leads back to the Radio page, where the row still plays and the strip is gone.
    await user.click(within(strip).getByRole('link', { name: 'Jazz FM, open the Radio page' }));
    expect(await station('Jazz FM')).toBeInTheDocument();
    expect(within(await station('Jazz FM')).getByRole('button', { name: 'Stop Jazz FM' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Radio playing' })).not.toBeInTheDocument();

    await act(() => router.navigate('/music'));
    await user.click(within(await screen.findByRole('region', { name: 'Radio playing' })).getByRole('button', { name: 'Stop Jazz FM' }));
    expect(radioAudio().paused).toBe(true);
    expect(radioAudio().getAttribute('src')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Radio playing' })).not.toBeInTheDocument();
  });

  it('plays at the player volume; a stream error stops the station and says so, also on another page', async () => {
    stubFetch({
      'GET /api/files': filesRoute(makeSongs(1)),
      'GET /api/radio-stations': { body: { stations: [jazz], canManage: false } },
      'GET /api/radio-stations/1/now-playing': { body: { title: null } },
    });
    const user = userEvent.setup();
    const { router } = renderApp('/radio');
    act(() => player.setVolume(0.3));
    expect(radioAudio().volume).toBeCloseTo(0.3);
    await user.click(within(await station('Jazz FM')).getByRole('button', { name: 'Play Jazz FM' }));
    await act(() => router.navigate('/music'));
    const strip = await screen.findByRole('region', { name: 'Radio playing' });
    act(() => player.setVolume(0.6));
    expect(radioAudio().volume).toBeCloseTo(0.6);

    act(() => {
      radioAudio().dispatchEvent(new Event('error'));
    });
    expect(await screen.findByText('The station could not be played')).toBeInTheDocument();
    expect(radioAudio().getAttribute('src')).toBeNull();
    expect(strip).not.toBeInTheDocument();
  });

  it('shows the strip in Hebrew, right to left', async () => {
    stubFetch({
      'GET /api/files': filesRoute(makeSongs(1)),
      'GET /api/radio-stations': { body: { stations: [jazz], canManage: false } },
      'GET /api/radio-stations/1/now-playing': { body: { title: 'Miles Davis - So What' } },
    });
    const user = userEvent.setup();
    const { router } = renderApp('/radio');
    act(() => setLanguage('he'));
    await user.click(within(await station('Jazz FM')).getByRole('button', { name: 'הפעלת Jazz FM' }));
    await act(() => router.navigate('/music'));
    const strip = await screen.findByRole('region', { name: 'רדיו מתנגן' });
    await waitFor(() => expect(within(strip).getByTestId('radio-strip-now-playing')).toHaveTextContent('מתנגן עכשיו: Miles Davis - So What'));
    expect(within(strip).getByRole('link', { name: '\u2068Jazz FM\u2069, פתיחת עמוד הרדיו' })).toHaveAttribute('href', '/radio');
    await user.click(within(strip).getByRole('button', { name: 'עצירת Jazz FM' }));
    expect(radioAudio().paused).toBe(true);
  });

  it('keeps playing a renamed station under its new name, and stops one whose address changes or that is deleted', async () => {
    let stations = [jazz];
    stubFetch({
      'GET /api/files': filesRoute(makeSongs(1)),
      'GET /api/radio-stations': () => ({ body: { stations, canManage: true } }),
      'GET /api/radio-stations/1/now-playing': { body: { title: null } },
      'PUT /api/radio-stations/1': (request) => {
        const changed = { id: 1, ...(request.body as Omit<RadioStation, 'id'>) };
        stations = [changed];
        return { body: changed };
      },
      'DELETE /api/radio-stations/1': () => {
        stations = [];
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    const { router } = renderApp('/radio');
    const edit = async (field: string, value: string) => {
      await user.click(within(await screen.findByRole('article')).getByRole('button', { name: /^Edit / }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit the radio station' });
      await user.clear(within(dialog).getByLabelText(field));
      await user.type(within(dialog).getByLabelText(field), value);
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(dialog).not.toBeInTheDocument());
    };
    await user.click(within(await station('Jazz FM')).getByRole('button', { name: 'Play Jazz FM' }));
    await edit('Name', 'Smooth Jazz');
    expect(await within(await station('Smooth Jazz')).findByRole('button', { name: 'Stop Smooth Jazz' })).toBeInTheDocument();
    expect(radioAudio().paused).toBe(false);
    await act(() => router.navigate('/music'));
    expect(within(await screen.findByRole('region', { name: 'Radio playing' })).getByText('Smooth Jazz')).toBeInTheDocument();

    await act(() => router.navigate('/radio'));
    await edit('Stream URL', 'https://jazz.example/new');
    expect(await within(await station('Smooth Jazz')).findByRole('button', { name: 'Play Smooth Jazz' })).toBeInTheDocument();
    expect(radioAudio().getAttribute('src')).toBeNull();

    await user.click(within(await station('Smooth Jazz')).getByRole('button', { name: 'Play Smooth Jazz' }));
    expect(radioAudio().getAttribute('src')).toBe('https://jazz.example/new');
    await user.click(within(await station('Smooth Jazz')).getByRole('button', { name: 'Delete Smooth Jazz' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(radioAudio().getAttribute('src')).toBeNull());
    expect(radioAudio().paused).toBe(true);
    await act(() => router.navigate('/music'));
    expect(await screen.findByRole('button', { name: 'Play Song 1' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Radio playing' })).not.toBeInTheDocument();
  });

  it('lets an admin add a station (checked first), edit it, and delete it after confirming', async () => {
    let stations = [jazz];
    const { requests } = stubFetch({
      'GET /api/radio-stations': () => ({ body: { stations, canManage: true } }),
      'POST /api/radio-stations': (request) => {
        const body = request.body as Omit<RadioStation, 'id'>;
        if (body.name === 'Taken') return { status: 400, body: { message: 'The stream URL must start with http:// or https://' } };
        const added = { id: 3, ...body };
        stations = [...stations, added];
        return { status: 201, body: added };
      },
      'PUT /api/radio-stations/1': (request) => {
        const changed = { id: 1, ...(request.body as Omit<RadioStation, 'id'>) };
        stations = stations.map((entry) => (entry.id === 1 ? changed : entry));
        return { body: changed };
      },
      'DELETE /api/radio-stations/1': () => {
        stations = stations.filter((entry) => entry.id !== 1);
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    renderApp('/radio');
    await user.click(await screen.findByRole('button', { name: 'Add station' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add a radio station' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Please enter a station name')).toBeInTheDocument();
    expect(within(dialog).getByText('Please enter the stream URL')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Name'), 'Taken');
    await user.type(within(dialog).getByLabelText('Stream URL'), 'ftp://x');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('The address must start with http:// or https://')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'POST')).toBe(false);
    // The server's refusal is shown in the form.
    await user.clear(within(dialog).getByLabelText('Stream URL'));
    await user.type(within(dialog).getByLabelText('Stream URL'), 'http://a.example/');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The stream URL must start with http:// or https://')).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Classic');
    await user.type(within(dialog).getByLabelText('Home page (optional)'), 'https://classic.example/');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await station('Classic')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'POST').at(-1)?.body).toEqual({
      name: 'Classic',
      streamUrl: 'http://a.example/',
      homepageUrl: 'https://classic.example/',
    });

    await user.click(within(await station('Jazz FM')).getByRole('button', { name: 'Edit Jazz FM' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit the radio station' });
    expect(within(dialog).getByLabelText('Stream URL')).toHaveValue(jazz.streamUrl);
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Smooth Jazz');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const renamed = await station('Smooth Jazz');
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({
      name: 'Smooth Jazz',
      streamUrl: jazz.streamUrl,
      homepageUrl: jazz.homepageUrl,
    });

    await user.click(within(renamed).getByRole('button', { name: 'Delete Smooth Jazz' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this station?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(requests.some((request) => request.method === 'DELETE')).toBe(false);
    await user.click(within(renamed).getByRole('button', { name: 'Delete Smooth Jazz' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Smooth Jazz' })).not.toBeInTheDocument());
    expect(requests.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual(['/api/radio-stations/1']);
  });

  it('speaks Hebrew, and is reachable from the Library menu', async () => {
    stubFetch({ 'GET /api/radio-stations': { body: { stations: [jazz], canManage: true } } });
    const user = userEvent.setup();
    renderApp('/radio');
    await station('Jazz FM');
    act(() => setLanguage('he'));
    expect(await screen.findByRole('heading', { level: 1, name: 'רדיו' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'הפעלת Jazz FM' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'הוספת תחנה' })).toBeInTheDocument();
    act(() => setLanguage('en'));
    await user.click(screen.getAllByRole('button', { name: 'Library' })[0]!);
    expect(await screen.findByRole('link', { name: /^Radio/ })).toHaveAttribute('href', '/radio');
  });
});
