import { describe, expect, it } from 'vitest';
import { buildFfmpegCommand, filterValue, type GraphInput } from './04-filter-graph.js';

const base: GraphInput = {
  width: 854,
  height: 480,
  framerate: 30,
  duration: 9,
  song: { file: '/w/song.mp3', start: 2 },
  media: { kind: 'images', files: ['/w/p0.png', '/w/p1.png', '/w/p2.png'], boundaries: [0, 3, 6, 9] },
  transition: 'smooth',
  hasXfade: true,
  subtitles: { file: '/w/words.ass', fontsDir: "/srv/it's:fonts" },
  format: 'mp4',
  audioFadeIn: 0.5,
  audioFadeOut: 1,
  output: '/w/clip.mp4',
};

describe('the filter graph', () => {
  it('chains xfade at each picture boundary, pictures overlapping by the transition', () => {
    const { args, filter } = buildFfmpegCommand(base);
    expect(filter).toContain('[p0][p1]xfade=transition=fade:duration=0.800:offset=3.000[x1]');
    expect(filter).toContain('[x1][p2]xfade=transition=fade:duration=0.800:offset=6.000[base]');
    expect(args.join(' ')).toContain('-f image2 -i file:/w/p0.png');
    // Each picture decoded once and repeated for its frames: 3.8 s and (the last) 3 s at 30 fps.
    expect(filter).toContain('[1:v]format=yuv420p,setsar=1,loop=loop=113:size=1:start=0,setpts=N/30/TB,settb=AVTB[p0]');
    expect(filter).toContain('[3:v]format=yuv420p,setsar=1,loop=loop=89:size=1:start=0');
    expect(args.slice(0, 4)).toEqual(['-ss', '2.000', '-t', '9.000']);
  });
  it('falls back to overlays with alpha fades or slides without xfade', () => {
    const smooth = buildFfmpegCommand({ ...base, hasXfade: false }).filter;
    expect(smooth).not.toContain('xfade');
    expect(smooth).toContain('fade=t=in:st=0:d=0.800:alpha=1,setpts=PTS-STARTPTS+3.000/TB[p1]');
    expect(smooth).toContain('[c1][p1]overlay=eof_action=pass:format=auto[c2]');
    const elastic = buildFfmpegCommand({ ...base, hasXfade: false, transition: 'elastic' }).filter;
    expect(elastic).toContain("x='max(0,W*(1-(t-3.000)/0.600))':eval=frame");
  });
  it('concatenates without transitions', () => {
    expect(buildFfmpegCommand({ ...base, transition: 'none' }).filter).toContain('[p0][p1][p2]concat=n=3:v=1:a=0[base]');
  });
  it('fades the audio in and out, and encodes each format', () => {
    const mp4 = buildFfmpegCommand(base);
    expect(mp4.filter).toContain('[0:a]afade=t=in:st=0:d=0.500,afade=t=out:st=8.000:d=1.000[aout]');
    expect(mp4.args).toEqual(expect.arrayContaining(['libx264', 'aac', '+faststart']));
    const webm = buildFfmpegCommand({ ...base, format: 'webm' });
    expect(webm.args).toEqual(expect.arrayContaining(['libvpx-vp9', 'libopus']));
  });
  it('makes a GIF in two runs, so no run holds every frame: a palette, then every frame mapped to it', () => {
    expect(() => buildFfmpegCommand({ ...base, format: 'gif' })).toThrow(/palette/);
    const palette = buildFfmpegCommand({ ...base, format: 'gif', framerate: 2, output: '/w/palette.png', gif: { stage: 'palette' } });
    expect(palette.filter).toMatch(/palettegen=stats_mode=full\[out\]$/);
    expect(palette.args.join(' ')).toContain('-map [out] -an -frames:v 1 -update 1 -f image2 -y file:/w/palette.png');
    const frames = buildFfmpegCommand({ ...base, format: 'gif', gif: { stage: 'frames', palette: '/w/palette.png' } });
    // The song and three pictures are inputs 0 to 3: the palette is input 4.
    expect(frames.args.join(' ')).toContain('-f image2 -i file:/w/palette.png');
    expect(frames.filter).toContain('[texted][4:v]paletteuse=dither=bayer:bayer_scale=3[out]');
    for (const run of [palette, frames]) {
      expect(run.filter).not.toContain('split');
      expect(run.filter).not.toContain('[0:a]');
      expect(run.args).toContain('-an');
    }
  });
  it('loops or trims a video to the clip, scaled and cropped to the frame', () => {
    const { args, filter } = buildFfmpegCommand({ ...base, media: { kind: 'video', file: '/w/v.mov' } });
    expect(args.join(' ')).toContain('-stream_loop -1 -t 9.000 -format_whitelist');
    expect(filter).toContain('scale=854:480:force_original_aspect_ratio=increase,crop=854:480');
  });
  it('escapes paths in the subtitles filter', () => {
    expect(filterValue("/srv/it's:fonts")).toBe("/srv/it\\\\\\'s\\\\:fonts");
    expect(buildFfmpegCommand(base).filter).toContain('subtitles=filename=/w/words.ass:fontsdir=');
  });
});
