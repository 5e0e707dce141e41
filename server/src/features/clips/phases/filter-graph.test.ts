import { describe, expect, it } from 'vitest';
import { buildFfmpegCommand, filterValue, pictureSpans, type GraphInput } from './04-filter-graph.js';

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
  it("blends with xfade only the frames of each transition, from its picture's start, between the pictures' frames alone", () => {
    const { args, filter } = buildFfmpegCommand(base);
    // 0.8 s at 30 fps: 24 frames of each picture in 4:4:4 (xfade's only formats), blended, then 4:2:0 again.
    expect(filter).toContain('[o0][i1]xfade=transition=fade:duration=0.800:offset=0,format=yuv420p[t1]');
    expect(filter).toContain('[o1][i2]xfade=transition=fade:duration=0.800:offset=0,format=yuv420p[t2]');
    expect(filter).toContain('[p0][t1][p1][t2][p2]concat=n=5:v=1:a=0[base]');
    // Each picture decoded once, split before it is repeated: alone for 3 s (the first), or 3 s less the transition.
    expect(filter).toContain('[1:v]setsar=1,split=2[u0_0][u0_1];[u0_0]format=yuv420p,loop=loop=89:size=1:start=0,setpts=N/30/TB[p0]');
    expect(filter).toContain('[u1_0]format=yuv444p,loop=loop=23:size=1:start=0,setpts=N/30/TB[i1]');
    expect(filter).toContain('[u1_1]format=yuv420p,loop=loop=65:size=1:start=0,setpts=N/30/TB[p1]');
    expect(filter).toContain('[u2_1]format=yuv420p,loop=loop=65:size=1:start=0,setpts=N/30/TB[p2]');
    // No stream longer than a transition is converted to 4:4:4.
    expect(filter.match(/format=yuv444p,loop=loop=\d+/g)).toEqual(Array(4).fill('format=yuv444p,loop=loop=23'));
    expect(args.join(' ')).toContain('-framerate 30 -f image2 -i file:/w/p0.png');
    expect(args.slice(0, 4)).toEqual(['-ss', '2.000', '-t', '9.000']);
  });
  it("falls back to an overlay of the transition's frames, its alpha faded or slid in, without xfade", () => {
    const smooth = buildFfmpegCommand({ ...base, hasXfade: false }).filter;
    expect(smooth).not.toContain('xfade');
    expect(smooth).toContain('[u1_0]format=yuva420p,loop=loop=23:size=1:start=0,setpts=N/30/TB,fade=t=in:st=0:d=0.800:alpha=1[i1]');
    expect(smooth).toContain('[u0_1]format=yuv420p,loop=loop=23:size=1:start=0,setpts=N/30/TB[o0]');
    expect(smooth).toContain('[o0][i1]overlay=eof_action=pass:format=auto,format=yuv420p[t1]');
    expect(smooth).toContain('[p0][t1][p1][t2][p2]concat=n=5:v=1:a=0[base]');
    const elastic = buildFfmpegCommand({ ...base, hasXfade: false, transition: 'elastic' }).filter;
    expect(elastic).toContain("[o0][i1]overlay=eof_action=pass:x='max(0,W*(1-t/0.600))':eval=frame:format=auto,format=yuv420p[t1]");
    expect(elastic).not.toContain(',fade=t=in');
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
      // Only a picture's one decoded frame is split (before it is repeated), never the clip's frames.
      expect(run.filter.match(/split/g)?.length).toBe(run.filter.match(/\[\d+:v\]setsar=1,split=/g)?.length);
      expect(run.filter).not.toContain('[0:a]');
      expect(run.args).toContain('-an');
    }
  });
  it("gives each picture its frames, transition included, so they make the clip's", () => {
    expect(pictureSpans([0, 3, 6, 9], 3, 9, 30, 0.8)).toEqual([
      { transition: 0, alone: 90 },
      { transition: 24, alone: 66 },
      { transition: 24, alone: 66 },
    ]);
    // Starts on frames, the transition's 7.5 frames rounded.
    expect(pictureSpans([0, 1.01, 2.5], 2, 2.5, 30, 0.25)).toEqual([
      { transition: 0, alone: 30 },
      { transition: 8, alone: 37 },
    ]);
    // A GIF's palette run at 2 frames a second: half-second pictures are one frame, the transition all of it.
    const palette = pictureSpans([0, 0.5, 1, 2], 3, 2, 2, 0.25);
    expect(palette).toEqual([
      { transition: 0, alone: 1 },
      { transition: 1, alone: 0 },
      { transition: 1, alone: 1 },
    ]);
    const frames = buildFfmpegCommand({
      ...base,
      framerate: 2,
      duration: 2,
      media: { kind: 'images', files: base.media.kind === 'images' ? base.media.files : [], boundaries: [0, 0.5, 1, 2] },
    });
    expect(frames.filter).toContain('[p0][t1][t2][p2]concat=n=4:v=1:a=0[base]');
    expect(pictureSpans([0, 4], 1, 4, 15, 0)).toEqual([{ transition: 0, alone: 60 }]);
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
