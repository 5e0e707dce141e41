import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COVER_LIMITS, renderCover, renderThumbnail, UnusableCoverError } from './cover-image.js';

/** A photo-like picture: noise compresses as a real cover does, not as a flat colour. */
async function picture(width: number, height: number): Promise<Sharp> {
  const noise = Buffer.alloc(width * height * 3);
  for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 2654435761) >>> 24;
  return sharp(noise, { raw: { width, height, channels: 3 } });
}

/** A JPEG whose start-of-scan names a colour component its frame does not have. */
function damagedScanJpeg(whole: Buffer): Buffer {
  const damaged = Buffer.from(whole);
  const scan = damaged.indexOf(Buffer.from([0xff, 0xda]));
  damaged[scan + 5] = 0x99;
  return damaged;
}

const jpeg = async (width: number, height: number) => (await picture(width, height)).jpeg({ quality: 85 }).toBuffer();

describe('renderCover', () => {
  it('keeps a clean JPEG within the full size byte for byte', async () => {
    const data = await jpeg(800, 800);
    const cover = await renderCover(data);
    expect(Buffer.compare(cover.full, data)).toBe(0);
  });

  it('re-encodes a JPEG that carries EXIF (a location must not be served), and drops it', async () => {
    const data = await (
      await picture(600, 600)
    )
      .jpeg()
      .withExif({ IFD0: { Artist: 'someone', ImageDescription: 'at home' } })
      .toBuffer();
    expect((await sharp(data).metadata()).exif).toBeDefined();
    const cover = await renderCover(data);
    expect(Buffer.compare(cover.full, data)).not.toBe(0);
    const facts = await sharp(cover.full).metadata();
    expect(facts.exif).toBeUndefined();
    expect(facts).toMatchObject({ width: 600, height: 600 });
  });

  it('shrinks a larger JPEG to the full size', async () => {
    const cover = await renderCover(await jpeg(1600, 1000));
    expect(await sharp(cover.full).metadata()).toMatchObject({ format: 'jpeg', width: DEFAULT_COVER_LIMITS.fullSize, height: 750 });
  });

  it('turns a sideways JPEG upright instead of keeping it', async () => {
    const data = await (await picture(400, 200)).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const cover = await renderCover(data);
    expect(await sharp(cover.full).metadata()).toMatchObject({ width: 200, height: 400 });
  });

  it('re-encodes a PNG as JPEG, on white where it was transparent', async () => {
    const png = await sharp({ create: { width: 50, height: 50, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    const cover = await renderCover(png);
    expect(await sharp(cover.full).metadata()).toMatchObject({ format: 'jpeg', channels: 3 });
    const { data } = await sharp(cover.full).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(240);
  });

  it('never keeps a truncated JPEG as it is', async () => {
    const whole = await jpeg(800, 800);
    const cut = whole.subarray(0, Math.floor(whole.length * 0.6));
    const outcome = await renderCover(cut).then(
      (cover) => cover,
      (error: unknown) => error,
    );
    if (outcome instanceof UnusableCoverError) return;
    expect(outcome).toMatchObject({ contentType: 'image/jpeg' });
    expect(Buffer.compare((outcome as { full: Buffer }).full, cut)).not.toBe(0);
  });

  it('refuses what is not a picture', async () => {
    await expect(renderCover(Buffer.from('not a picture at all'))).rejects.toBeInstanceOf(UnusableCoverError);
  });
});

describe('renderThumbnail', () => {
  it('makes a 300 px square of a wide cover, cropped to its middle', async () => {
    // Left third red, the rest blue: the square crop of a 900 x 300 picture is all blue.
    const wide = await sharp({ create: { width: 900, height: 300, channels: 3, background: '#0000ff' } })
      .composite([{ input: { create: { width: 300, height: 300, channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
      .jpeg()
      .toBuffer();
    const thumb = await renderThumbnail(wide);
    expect(await sharp(thumb).metadata()).toMatchObject({ format: 'jpeg', width: 300, height: 300 });
    const { channels } = await sharp(thumb).stats();
    expect(channels[2]?.mean).toBeGreaterThan(200);
    expect(channels[0]?.mean).toBeLessThan(40);
  });

  it('refuses a cover whose scan header is damaged, as renderCover does', async () => {
    const damaged = damagedScanJpeg(await jpeg(600, 600));
    await expect(renderThumbnail(damaged)).rejects.toBeInstanceOf(UnusableCoverError);
    await expect(renderCover(damaged)).rejects.toBeInstanceOf(UnusableCoverError);
  });
});
