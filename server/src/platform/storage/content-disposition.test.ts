import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from './content-disposition.js';

describe('attachmentDisposition', () => {
  it('gives plain ASCII names as both filename and filename*', () => {
    expect(attachmentDisposition('Song.mp3')).toBe(`attachment; filename="Song.mp3"; filename*=UTF-8''Song.mp3`);
  });

  it('encodes UTF-8 names and gives an ASCII fallback', () => {
    expect(attachmentDisposition('Café – Ünïcode ♪.mp3')).toBe(
      `attachment; filename="Cafe _ Unicode _.mp3"; filename*=UTF-8''Caf%C3%A9%20%E2%80%93%20%C3%9Cn%C3%AFcode%20%E2%99%AA.mp3`,
    );
  });

  it('never lets a name break out of the header or the folder', () => {
    const header = attachmentDisposition('a"b\\c/d\r\ne\'(1)*.mp3');
    expect(header).toBe(`attachment; filename="a_b_c_d__e'(1)*.mp3"; filename*=UTF-8''a%22b_c_d__e%27%281%29%2A.mp3`);
    expect(attachmentDisposition('   ')).toContain('filename="download"');
  });
});
