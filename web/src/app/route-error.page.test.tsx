import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../test/fetch-stub';
import { renderApp } from '../test/render-app';
import { AppLayout } from './app.layout';
import { RouteErrorPage } from './route-error.page';

function Broken(): never {
  throw new Error('render failed');
}

describe('route error page', () => {
  it('replaces a failing page but keeps the top bar and footer', () => {
    stubFetch({});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderApp('/', [{ element: <AppLayout />, children: [{ errorElement: <RouteErrorPage />, children: [{ index: true, element: <Broken /> }] }] }]);
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(within(alert).getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(within(alert).getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });
});
