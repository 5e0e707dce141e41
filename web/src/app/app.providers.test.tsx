import { useMutation } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api-client';
import { AppProviders, createQueryClient, type ErrorToastMeta } from './app.providers';

function Failing({ meta, error }: { meta?: ErrorToastMeta; error: unknown }) {
  const mutation = useMutation({ mutationFn: () => Promise.reject(error), meta });
  return (
    <button type="button" onClick={() => mutation.mutate()}>
      {mutation.isError ? 'failed' : 'go'}
    </button>
  );
}

function renderFailing(meta: ErrorToastMeta | undefined, error: unknown) {
  render(
    <AppProviders queryClient={createQueryClient({ retry: false })}>
      <Failing meta={meta} error={error} />
    </AppProviders>,
  );
}

describe('the one error-toast handler of the query client', () => {
  it("toasts a failed mutation that asks for it: the server's message first", async () => {
    renderFailing({ errorToast: { fallback: 'Failed to add song' } }, new ApiError(409, 'Song already in playlist', 'Song already in playlist'));
    await userEvent.click(screen.getByRole('button', { name: 'go' }));
    expect(await screen.findByText('Song already in playlist')).toBeInTheDocument();
  });

  it('falls back to the text the mutation gave when the server said nothing', async () => {
    renderFailing({ errorToast: { fallback: 'Failed to add song' } }, new TypeError('network'));
    await userEvent.click(screen.getByRole('button', { name: 'go' }));
    expect(await screen.findByText('Failed to add song')).toBeInTheDocument();
  });

  it("titles the toast with the mutation's own text and gives the server's reason beneath", async () => {
    renderFailing(
      { errorToast: { title: 'Failed to save lyrics', fallback: '' } },
      new ApiError(413, 'Lyrics are too long: at most 20000 characters', 'Lyrics are too long: at most 20000 characters'),
    );
    await userEvent.click(screen.getByRole('button', { name: 'go' }));
    expect(await screen.findByText('Failed to save lyrics')).toBeInTheDocument();
    expect(screen.getByText('Lyrics are too long: at most 20000 characters')).toBeInTheDocument();
  });

  it('toasts nothing for a mutation without errorToast (its caller shows the failure)', async () => {
    renderFailing(undefined, new ApiError(500, 'Boom', 'Boom'));
    await userEvent.click(screen.getByRole('button', { name: 'go' }));
    expect(await screen.findByRole('button', { name: 'failed' })).toBeInTheDocument();
    expect(screen.queryByText('Boom')).not.toBeInTheDocument();
  });
});
