import { act, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { sessionStore } from '../../lib/session.store';

beforeEach(() => {
  sessionStore.reset();
});

describe('public share page', () => {
  it('plays a shared song for a signed-out visitor', async () => {
    stubFetch({
      'GET /api/share/tok123': {
        body: {
          displayName: 'Nova - Blue Hour',
          artist: 'Nova',
          album: 'Night Drive',
          durationSeconds: 185,
          hasCover: true,
          streamUrl: '/api/share/tok123/stream?sig=a',
          coverUrl: '/api/share/tok123/cover?sig=b',
          sharedBy: 'ada',
          expiresAt: '2026-04-04T10:00:00Z',
        },
      },
    });
    renderApp('/share/tok123');
    expect(await screen.findByRole('heading', { level: 1, name: 'Blue Hour' })).toBeInTheDocument();
    expect(screen.getByText('Nova · Night Drive · 3:05')).toBeInTheDocument();
    const audio = screen.getByLabelText<HTMLAudioElement>('Play Nova - Blue Hour');
    expect(audio).toHaveAttribute('src', '/api/share/tok123/stream?sig=a');
    // Encore's own controls, not the browser's stock ones.
    expect(audio).not.toHaveAttribute('controls');
    const play = screen.getByRole('button', { name: 'Play' });
    expect(play).toBeDisabled();
    expect(screen.getByTestId('share-duration')).toHaveTextContent('3:05');
    act(() => {
      audio.dispatchEvent(new Event('loadedmetadata'));
    });
    expect(play).toBeEnabled();
    expect(screen.getByRole('slider', { name: 'Song position' })).toBeEnabled();
    expect(document.querySelector('img')).toHaveAttribute('src', '/api/share/tok123/cover?sig=b');
    expect(screen.getByText('Shared by ada')).toBeInTheDocument();
    expect(screen.getByText('Link expires on Apr 4, 2026')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Get Started' })).toBeInTheDocument(); // still signed out
  });

  it('says when the link is invalid or expired, with a way home', async () => {
    stubFetch({ 'GET /api/share/old': { status: 404, body: { message: 'This share link is invalid or has expired.' } } });
    renderApp('/share/old');
    expect(await screen.findByText('This share link is invalid or has expired.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });
});
