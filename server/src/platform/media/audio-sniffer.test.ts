import { describe, expect, it } from 'vitest';
import { mpegFrameLength, sniffAudio } from './audio-sniffer.js';

/** An MPEG-1 layer III frame header: 128 kbit/s, 44.1 kHz, no padding (417 bytes a frame). */
const MP3_FRAME = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(413)]);
const id3 = (body: number, sizeBytes = syncsafe(body)) => Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0]), sizeBytes, Buffer.alloc(body)]);
function syncsafe(value: number): Buffer {
  return Buffer.from([(value >> 21) & 0x7f, (value >> 14) & 0x7f, (value >> 7) & 0x7f, value & 0x7f]);
}
const ascii = (text: string) => Buffer.from(text, 'latin1');
const sniff = (...parts: Buffer[]) => sniffAudio(Buffer.concat(parts))?.container;

describe('sniffAudio', () => {
  it('recognises MP3 by its frames or its ID3 tag', () => {
    expect(mpegFrameLength(MP3_FRAME, 0)).toBe(417);
    expect(sniff(MP3_FRAME, MP3_FRAME, MP3_FRAME)).toBe('mp3');
    expect(sniff(id3(100), MP3_FRAME, MP3_FRAME)).toBe('mp3');
    expect(sniffAudio(Buffer.concat([MP3_FRAME, MP3_FRAME]))?.mimeType).toBe('audio/mpeg');
    // A tag larger than what was read: the tag parser decides later.
    expect(sniff(id3(200_000).subarray(0, 65_536))).toBe('mp3');
  });

  it('needs a second frame where the first says it should be', () => {
    expect(sniff(MP3_FRAME, Buffer.alloc(600, 0x20))).toBeUndefined();
    expect(sniff(Buffer.from([0xff, 0xfb, 0xf0, 0x64]), Buffer.alloc(1000))).toBeUndefined(); // bit rate index 15
  });

  it('recognises a damaged ID3 header only when real frames follow', () => {
    const broken = Buffer.from([0xff, 0xff, 0xff, 0xff]);
    expect(sniff(id3(50, broken), MP3_FRAME, MP3_FRAME)).toBe('mp3');
    expect(sniff(id3(50, broken), ascii('plain text '.repeat(100)))).toBeUndefined();
  });

  it('recognises FLAC, WAV, Ogg Vorbis and Opus, M4A and ADTS AAC', () => {
    expect(sniff(ascii('fLaC'), Buffer.alloc(100))).toBe('flac');
    expect(sniff(id3(20), ascii('fLaC'), Buffer.alloc(100))).toBe('flac');
    expect(sniff(ascii('RIFF'), Buffer.alloc(4), ascii('WAVEfmt '), Buffer.alloc(100))).toBe('wav');
    const oggPage = (packet: string) => Buffer.concat([ascii('OggS'), Buffer.alloc(22), Buffer.from([1, 30]), ascii(packet), Buffer.alloc(30)]);
    expect(sniff(oggPage('\x01vorbis'))).toBe('ogg');
    expect(sniff(oggPage('OpusHead'))).toBe('ogg');
    expect(sniff(oggPage('\x80theora'))).toBeUndefined();
    expect(sniff(Buffer.from([0, 0, 0, 0x20]), ascii('ftypM4A '), Buffer.alloc(100))).toBe('m4a');
    expect(sniff(Buffer.from([0, 0, 0, 0x20]), ascii('ftypqt  '), Buffer.alloc(100))).toBeUndefined();
    const adts = Buffer.concat([Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc]), Buffer.alloc(9)]); // 16-byte frame
    expect(sniff(adts, adts, adts)).toBe('aac');
  });

  it('refuses everything else', () => {
    expect(sniff(Buffer.alloc(0))).toBeUndefined();
    expect(sniff(Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(100))).toBeUndefined(); // ELF
    expect(sniff(ascii('MZ'), Buffer.alloc(100))).toBeUndefined(); // Windows executable
    expect(sniff(ascii('%PDF-1.7\n'))).toBeUndefined();
    expect(sniff(Buffer.from([0x89]), ascii('PNG\r\n\x1a\n'), Buffer.alloc(50))).toBeUndefined();
    expect(sniff(ascii('ID3'))).toBeUndefined();
    expect(sniff(ascii('<html><body>not music</body></html>'))).toBeUndefined();
  });
});
