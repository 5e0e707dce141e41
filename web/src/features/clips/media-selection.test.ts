import { describe, expect, it } from 'vitest';
import { addMedia, EMPTY_MEDIA, moveMedia, removeMedia } from './media-selection';

const image = (name: string) => new File(['x'], name, { type: 'image/png' });
const video = (name: string) => new File(['x'], name, { type: 'video/mp4' });
const names = (selection: { items: { file: File }[] }) => selection.items.map((item) => item.file.name);

describe('media selection (SPEC 4, 5)', () => {
  it('lets the first file decide: pictures keep pictures only', () => {
    const selection = addMedia(EMPTY_MEDIA, [image('a.png'), video('v.mp4'), image('b.png')]);
    expect(selection.isVideo).toBe(false);
    expect(names(selection)).toEqual(['a.png', 'b.png']);
  });

  it('lets the first file decide: a video is one file and takes no pictures after it', () => {
    const selection = addMedia(EMPTY_MEDIA, [video('v.mp4'), image('a.png')]);
    expect(selection.isVideo).toBe(true);
    expect(names(selection)).toEqual(['v.mp4']);
    expect(addMedia(selection, [image('b.png')])).toBe(selection);
  });

  it('ignores files that are neither pictures nor videos', () => {
    const text = new File(['x'], 'notes.txt', { type: 'text/plain' });
    expect(addMedia(EMPTY_MEDIA, [text])).toBe(EMPTY_MEDIA);
  });

  it('resets the video flag when the last item goes', () => {
    const selection = addMedia(EMPTY_MEDIA, [video('v.mp4')]);
    const emptied = removeMedia(selection, selection.items[0]!.id);
    expect(emptied).toEqual({ items: [], isVideo: false });
    expect(addMedia(emptied, [image('a.png')]).isVideo).toBe(false);
  });

  it('moves an item to the dropped position and ignores a drop outside the list', () => {
    const selection = addMedia(EMPTY_MEDIA, [image('a.png'), image('b.png'), image('c.png')]);
    const [a, , c] = selection.items;
    expect(names(moveMedia(selection, a!.id, c!.id))).toEqual(['b.png', 'c.png', 'a.png']);
    expect(names(moveMedia(selection, c!.id, a!.id))).toEqual(['c.png', 'a.png', 'b.png']);
    expect(moveMedia(selection, a!.id, null)).toBe(selection);
    expect(moveMedia(selection, a!.id, 'elsewhere')).toBe(selection);
  });
});
