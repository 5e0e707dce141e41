import { describe, expect, it } from 'vitest';
import { mpegFrameLength, sniffAudio, sniffAudioFile } from './audio-sniffer.js';
import { bufferSource } from './byte-source.js';

/** An MPEG-1 layer III frame header: 128 kbit/s, 44.1 kHz, no padding (417 bytes a frame). */
const MP3_FRAME = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(413)]);
const id3 = (body: number, sizeBytes = syncsafe(body), version = 3, flags = 0) =>
  Buffer.concat([
    Buffer.from('ID3'),
    Buffer.from([version, 0, flags]),
    sizeBytes,
    Buffer.alloc(body),
    flags & 0x10 ? Buffer.from('3DI\x04\x00\x10') : Buffer.alloc(0),
    flags & 0x10 ? syncsafe(body) : Buffer.alloc(0),
  ]);
function syncsafe(value: number): Buffer {
  return Buffer.from([(value >> 21) & 0x7f, (value >> 14) & 0x7f, (value >> 7) & 0x7f, value & 0x7f]);
}
const ascii = (text: string) => Buffer.from(text, 'latin1');
const sniff = (...parts: Buffer[]) => sniffAudio(Buffer.concat(parts))?.container;
const sniffFile = async (...parts: Buffer[]) => (await sniffAudioFile(bufferSource(Buffer.concat(parts))))?.container;
/** An MPEG-1 layer III frame at 48 kHz: the same sync, another stream. */
const OTHER_STREAM_FRAME = Buffer.concat([Buffer.from([0xff, 0xfb, 0x94, 0x64]), Buffer.alloc(380)]);
const ftyp = (major: string, ...compatible: string[]) => {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(16 + 4 * compatible.length);
  return Buffer.concat([size, ascii(`ftyp${major}`), Buffer.from([0, 0, 2, 0]), ascii(compatible.join('')), Buffer.from([0, 0, 0, 8]), ascii('free')]);
};

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
    // One frame that reaches the end of the file is not a song either: a UTF-16 text starts FF FE,
    // an MPEG-1 layer I header for a frame longer than the text.
    expect(sniff(MP3_FRAME.subarray(0, 300))).toBeUndefined();
    const utf16 = Buffer.from(`\uFEFF[00:01.00]歌词 lyrics\r\n[00:03.00]second line\r\n`, 'utf16le');
    expect(sniff(utf16)).toBeUndefined();
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
    expect(sniff(oggPage('\x7fFLAC\x01\x00'))).toBe('ogg'); // FLAC's Ogg mapping
    expect(sniff(oggPage('Speex   1.2'))).toBe('ogg');
    expect(sniff(oggPage('\x80theora'))).toBeUndefined();
    expect(sniff(Buffer.from([0, 0, 0, 0x20]), ascii('ftypM4A '), Buffer.alloc(100))).toBe('m4a');
    expect(sniff(Buffer.from([0, 0, 0, 0x20]), ascii('ftypqt  '), Buffer.alloc(100))).toBeUndefined();
    const adts = Buffer.concat([Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc]), Buffer.alloc(9)]); // 16-byte frame
    expect(sniff(adts, adts, adts)).toBe('aac');
  });

  it('finds the MPEG sync after junk, padding or a partial frame, as decoders do', async () => {
    const partial = MP3_FRAME.subarray(150); // the tail of a frame cut from a stream
    expect(sniff(partial, MP3_FRAME, MP3_FRAME, MP3_FRAME)).toBe('mp3');
    expect(sniff(Buffer.alloc(2000), MP3_FRAME, MP3_FRAME, MP3_FRAME)).toBe('mp3');
    expect(sniff(ascii('junk from a broken download '.repeat(30)), MP3_FRAME, MP3_FRAME, MP3_FRAME, MP3_FRAME)).toBe('mp3');
    expect(await sniffFile(partial, MP3_FRAME, MP3_FRAME, MP3_FRAME)).toBe('mp3');
    // Two lucky frames inside other data, or frames of different streams, are not a run.
    expect(sniff(Buffer.alloc(300, 0x20), MP3_FRAME, MP3_FRAME, Buffer.alloc(3000, 0x20))).toBeUndefined();
    expect(sniff(Buffer.alloc(300, 0x20), MP3_FRAME, OTHER_STREAM_FRAME, MP3_FRAME, Buffer.alloc(3000, 0x20))).toBeUndefined();
    // Files of another kind stay refused, whatever frames they carry.
    expect(sniff(ascii('PK\x03\x04'), Buffer.alloc(100), MP3_FRAME, MP3_FRAME, MP3_FRAME)).toBeUndefined();
    expect(sniff(ascii('RIFF'), Buffer.alloc(4), ascii('AVI LIST'), MP3_FRAME, MP3_FRAME, MP3_FRAME)).toBeUndefined();
  });

  it('skips ID3v2 tags by their declared size, however large, and sniffs what follows', async () => {
    const flac = Buffer.concat([ascii('fLaC'), Buffer.alloc(100)]);
    expect(await sniffFile(id3(200_000), flac)).toBe('flac');
    expect(await sniffFile(id3(200_000), MP3_FRAME, MP3_FRAME)).toBe('mp3');
    expect(await sniffFile(id3(100_000, undefined, 4, 0x10), flac)).toBe('flac'); // ID3v2.4 with a footer
    expect(await sniffFile(id3(70_000), id3(30), Buffer.alloc(16), flac)).toBe('flac'); // two tags, zero padding
    expect(await sniffFile(id3(200_000), ascii('plain text '.repeat(500)))).toBeUndefined();
    // A tag that claims the whole file: the tag parser decides.
    expect(await sniffFile(id3(200_000).subarray(0, 100_000))).toBe('mp3');
  });

  it('counts the compatible brands of an MP4, not only the major one', () => {
    const tail = Buffer.alloc(100);
    expect(sniff(ftyp('M4A ', 'M4A ', 'mp42', 'isom'), tail)).toBe('m4a');
    expect(sniff(ftyp('3gp4', 'isom', '3gp4'), tail)).toBe('m4a');
    expect(sniff(ftyp('XAVC', 'M4A '), tail)).toBe('m4a');
    expect(sniff(ftyp('mp71', 'dash', 'iso6'), tail)).toBe('m4a');
    expect(sniff(ftyp('qt  ', 'qt  '), tail)).toBeUndefined();
    expect(sniff(ftyp('heic', 'mif1', 'heic', 'isom'), tail)).toBeUndefined();
    expect(sniff(ftyp('avif', 'avif', 'mif1', 'miaf'), tail)).toBeUndefined();
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
