import { describe, expect, it } from 'vitest';
import { assColor, assTime, buildClipSubtitles, escapeText, parseCssColor } from './clip-subtitles.js';
import { DEFAULT_TEXT_STYLE, type TextStyle } from './text-style.contract.js';
import type { Word } from './words.contract.js';

const words: Word[] = [
  { text: 'Hello', start: 0.5, end: 1 },
  { text: 'bright', start: 1, end: 1.5 },
  { text: 'world.', start: 1.5, end: 2.2 },
  { text: 'Again', start: 5, end: 5.5 },
];

function build(style: Partial<TextStyle> = {}, extra: Partial<Parameters<typeof buildClipSubtitles>[0]> = {}) {
  return buildClipSubtitles({ words, style: { ...DEFAULT_TEXT_STYLE, ...style }, width: 1280, height: 720, start: 0, end: 8, ...extra });
}
const dialogues = (ass: string) => ass.split('\n').filter((line) => line.startsWith('Dialogue:'));

describe('clip subtitles (ASS)', () => {
  it('sizes to the frame and scales the font from a 360-pixel short side', () => {
    const ass = build();
    expect(ass).toContain('PlayResX: 1280\nPlayResY: 720');
    expect(ass).toMatch(/^Style: Text,Liberation Sans,48,/m);
  });
  it('draws the background box as a layer-0 copy, and none when the background is off', () => {
    expect(dialogues(build()).filter((line) => line.includes(',Box,'))).toHaveLength(2);
    expect(build()).toMatch(/^Style: Box,.*,&H80000000,&H60000000,.*,3,16,0,5/m);
    expect(dialogues(build({ showBackground: false })).some((line) => line.includes(',Box,'))).toBe(false);
  });
  it('stops the boxes of two lines on a screen where the lines meet (no darker band where they would overlap)', () => {
    const long = 'one two three four five six seven eight nine ten eleven twelve'.split(' ').map((text, i) => ({ text, start: i * 0.3, end: i * 0.3 + 0.3 }));
    const boxes = dialogues(
      buildClipSubtitles({ words: long, style: { ...DEFAULT_TEXT_STYLE, fontSize: 60, textPosition: 'top' }, width: 640, height: 360, start: 0, end: 8 }),
    ).filter((line) => line.includes(',Box,'));
    // 60 px at 360 lines, line height 1.2: the lines meet 72 px below the first one's top (18 px margin + 8 px padding).
    expect(boxes.slice(0, 2).map((line) => /\\clip\(([^)]*)\)/.exec(line)?.[1])).toEqual(['0,0,640,98', '0,98,640,360']);
    // A screen of one line is not clipped.
    expect(
      dialogues(build())
        .filter((line) => line.includes(',Box,'))
        .some((line) => line.includes('\\clip')),
    ).toBe(false);
  });
  it('karaoke: each word turns the highlight colour at its time', () => {
    const text = dialogues(build()).find((line) => line.includes(',Text,') && line.includes('Hello'));
    // The screen starts 0.25 s before the first word: Hello at +0.25, bright at +0.75, world at +1.25.
    expect(text).toContain('0:00:00.25');
    expect(text).toContain('{\\k25}{\\k50}Hello{\\k50} bright{\\k70} world.');
  });
  it('a pause starts a new screen; screens never overlap', () => {
    const lines = dialogues(build({ showBackground: false }));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/0:00:00\.25,0:00:03\.20/);
    expect(lines[1]).toMatch(/0:00:04\.75,0:00:06\.50/);
  });
  it('places text where the position and alignment say', () => {
    expect(build({ textPosition: 'top', showBackground: false })).toContain('\\an5\\fnLiberation Sans\\pos(640,64.8)');
    expect(build({ textPosition: 'bottom', textAlign: 'left', showBackground: false })).toContain('\\an4\\fnLiberation Sans\\pos(64,655.2)');
  });
  it('turns every animation into libass tags', () => {
    expect(build({ animation: 'fade' })).toContain('\\fad(300,300)');
    expect(build({ animation: 'slide' })).toMatch(/\\move\(640,408,640,360,0,300\)/);
    expect(build({ animation: 'zoom' })).toContain('\\fscx70\\fscy70\\t(0,300,\\fscx100\\fscy100)');
    expect(build({ animation: 'bounce' })).toMatch(/\\move\(640,312,640,360,0,300\)\\t\(300,380/);
    expect(build({ animation: 'pulse' })).toContain('\\t(0,500,\\fscx106\\fscy106)');
    expect(build({ animation: 'none' })).not.toMatch(/\\fad|\\move|\\t\(/);
  });
  it('escapes text that would break the syntax', () => {
    expect(escapeText('a{\\b}\\N c')).toBe('a\\{\\\u200bb\\}\\\u200bN c');
    const ass = buildClipSubtitles({ words: [{ text: '{\\an8}x', start: 0, end: 1 }], style: DEFAULT_TEXT_STYLE, width: 640, height: 360, start: 0, end: 2 });
    expect(ass).not.toContain('{\\an8}');
  });
  it('uses the sans face for Hebrew in a script family and keeps the family otherwise', () => {
    const hebrew = buildClipSubtitles({
      words: [{ text: 'שלום', start: 0, end: 1 }],
      style: { ...DEFAULT_TEXT_STYLE, fontFamily: 'cursive' },
      width: 640,
      height: 360,
      start: 0,
      end: 2,
    });
    expect(hebrew).toContain('\\fnLiberation Sans');
    expect(build({ fontFamily: 'cursive' })).toContain('\\fnDancing Script');
  });
  it('spreads words without timings over the clip, and shifts timed words by the clip start', () => {
    const untimed = buildClipSubtitles({
      words: [
        { text: 'a', start: 0, end: 0 },
        { text: 'b', start: 0, end: 0 },
      ],
      style: DEFAULT_TEXT_STYLE,
      width: 640,
      height: 360,
      start: 0,
      end: 4,
    });
    expect(dialogues(untimed).some((line) => line.includes('a b'))).toBe(true);
    // Plain, not karaoke: the whole line in the text colour (the style's primary colour is the highlight).
    const text = dialogues(untimed).find((line) => line.startsWith('Dialogue: 1,'));
    expect(text).toContain('\\1c&HFFFFFF&\\1a&H00&');
    expect(text).not.toContain('\\k');
    const shifted = build({ showBackground: false }, { start: 4, end: 8 });
    expect(dialogues(shifted)).toHaveLength(1);
    expect(dialogues(shifted)[0]).toMatch(/0:00:00\.75,0:00:02\.50/);
  });
  it('applies style flags, spacing and colours', () => {
    const ass = build({ textStyles: { bold: true, italic: true, underline: true }, letterSpacing: 2, textColor: '#102030', textShadow: false });
    expect(ass).toMatch(/^Style: Text,Liberation Sans,48,&H004FD5FF,&H00302010,&H00000000,&H60000000,-1,-1,-1,0,100,100,4,0,1,0,0,/m);
    expect(build({}, { textColors: [{ from: 0, color: '#000000' }] })).toContain('\\2c&H000000&\\2a&H00&');
  });
  it('formats times and colours', () => {
    expect(assTime(3723.456)).toBe('1:02:03.46');
    expect(assColor('#ff8000').bgr).toBe('&H0080FF&');
    expect(parseCssColor('rgba(0,0,0,0.5)')).toEqual({ r: 0, g: 0, b: 0, a: 0.5 });
    expect(parseCssColor('#abc')).toEqual({ r: 0xaa, g: 0xbb, b: 0xcc, a: 1 });
  });
});
