import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CoverArt } from './cover-art';

/** An IntersectionObserver the test drives: it says which observed elements come near. */
class TestObserver {
  static all: TestObserver[] = [];
  readonly elements = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {
    TestObserver.all.push(this);
  }
  observe(element: Element) {
    this.elements.add(element);
  }
  disconnect() {
    this.elements.clear();
  }
  unobserve(element: Element) {
    this.elements.delete(element);
  }
  takeRecords() {
    return [];
  }
  /** The observed element `element` enters the viewport's margin. */
  static near(element: Element) {
    for (const observer of TestObserver.all) {
      if (!observer.elements.has(element)) continue;
      observer.callback([{ isIntersecting: true, target: element } as IntersectionObserverEntry], observer as unknown as IntersectionObserver);
    }
  }
}

afterEach(() => {
  TestObserver.all = [];
  vi.unstubAllGlobals();
});

describe('CoverArt', () => {
  it('asks for its cover only once it is near the viewport, and keeps it after', async () => {
    vi.stubGlobal('IntersectionObserver', TestObserver);
    const fetchMock = vi.fn(
      async () => new Response(new Blob([new Uint8Array([1, 2, 3])], { type: 'image/jpeg' }), { status: 200, headers: { 'Content-Type': 'image/jpeg' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient();
    const { container } = render(
      <QueryClientProvider client={client}>
        <CoverArt fileKey="songs/far.mp3" size="thumb" className="far" />
        <CoverArt fileKey="songs/near.mp3" size="thumb" className="near" />
      </QueryClientProvider>,
    );
    const far = container.querySelector('.far')!;
    const near = container.querySelector('.near')!;
    expect(fetchMock).not.toHaveBeenCalled();
    act(() => TestObserver.near(near));
    await vi.waitFor(() => expect(near.querySelector('img')).not.toBeNull());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String((fetchMock.mock.calls[0] as unknown as [string])[0])).toContain('near.mp3');
    expect(far.querySelector('img')).toBeNull();
    act(() => TestObserver.near(far));
    await vi.waitFor(() => expect(far.querySelector('img')).not.toBeNull());
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('asks at once where the browser has no IntersectionObserver', async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    const fetchMock = vi.fn(
      async () => new Response(new Blob([new Uint8Array([1])], { type: 'image/jpeg' }), { status: 200, headers: { 'Content-Type': 'image/jpeg' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { container } = render(
      <QueryClientProvider client={new QueryClient()}>
        <CoverArt fileKey="songs/any.mp3" size="thumb" />
      </QueryClientProvider>,
    );
    await vi.waitFor(() => expect(container.querySelector('img')).not.toBeNull());
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
