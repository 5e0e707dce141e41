import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatBytes } from '../features/admin/admin-format';
import { formatFileSize } from './file-size.format';
import { formatMessage, setLanguage } from './i18n/i18n.store';
import { LRI, PDI, formatQuantity, ltrRun } from './ltr-run.format';

describe('formatQuantity', () => {
  beforeEach(() => setLanguage('he'));
  afterEach(() => setLanguage('en'));

  it('writes the number, a space and the unit as one isolated left-to-right run', () => {
    expect(formatQuantity(120, 'BPM')).toBe(`${LRI}120 BPM${PDI}`);
    expect(formatQuantity(-14, 'LUFS')).toBe(`${LRI}-14 LUFS${PDI}`);
    expect(formatQuantity(320, 'kbps')).toBe(`${LRI}320 kbps${PDI}`);
  });

  it('signs a positive gain, never zero, and keeps the minus of a negative one', () => {
    expect(formatQuantity(7.7, 'dB', { signed: true })).toBe(`${LRI}+7.7 dB${PDI}`);
    expect(formatQuantity(0, 'dB', { signed: true })).toBe(`${LRI}0 dB${PDI}`);
    expect(formatQuantity(-3.5, 'dB', { signed: true })).toBe(`${LRI}-3.5 dB${PDI}`);
  });

  it('writes a percentage without a space, and the asked digits', () => {
    expect(formatQuantity(45, '%')).toBe(`${LRI}45%${PDI}`);
    expect(formatQuantity(1.25, 'MB', { fractionDigits: 1 })).toBe(`${LRI}1.3 MB${PDI}`);
  });

  it('isolates the sizes of files and of storage', () => {
    expect(formatFileSize(1536)).toBe(ltrRun('1.5 KB'));
    expect(formatBytes(3.25 * 1024 ** 3)).toBe(ltrRun('3.3 GB'));
  });

  it('writes plain text for a left-to-right language, so English keeps the spec strings whole', () => {
    setLanguage('en');
    expect(formatQuantity(45, '%')).toBe('45%');
    expect(formatQuantity(7.7, 'dB', { signed: true })).toBe('+7.7 dB');
    expect(formatQuantity(120, 'BPM', { language: 'he' })).toBe(`${LRI}120 BPM${PDI}`);
    expect(formatFileSize(1536)).toBe('1.5 KB');
  });

  it('keeps the run whole inside a Hebrew sentence: the sign and the unit stay beside the number', () => {
    const line = formatMessage('השיר הזה: {value}', { value: formatQuantity(7.7, 'dB', { signed: true }) });
    expect(line).toBe(`השיר הזה: ${LRI}+7.7 dB${PDI}`);
  });
});

// The kind of defect, kept fixed: a number glued to a unit by hand (in JSX, a template string or a
// catalogue) is not isolated and scrambles in Hebrew. Units go through formatQuantity instead.
// Every source file of the web app, as text (Vite reads them for the test).
const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], { eager: true, query: '?raw', import: 'default' });
const UNIT = String.raw`(?:dB|LUFS|BPM|kbps|[KMG]B|%)(?![\w])`;
const handMade = [
  // JSX text or a Hebrew message: {value}% or {value} dB, unless isolated (a template literal's ${…}% is CSS, not text)
  new RegExp(String.raw`(?<![$\w\u2066])\{[^{}\n]+\}\s?${UNIT}`),
  // template strings: `${value} dB`, `${value} MB` (not %, which styles use)
  new RegExp(String.raw`\$\{[^{}\n]+\}\s?(?:dB|LUFS|BPM|kbps|[KMG]B)(?![\w])`),
];

describe('numbers with units in the web app', () => {
  it('are never glued to their unit by hand, in code or in a catalogue', () => {
    const offences: string[] = [];
    expect(Object.keys(sources).length).toBeGreaterThan(100);
    for (const [file, text] of Object.entries(sources)) {
      // English reads left to right anyway: its catalogues keep the spec's words ("Up to 25MB").
      if (file.endsWith('ltr-run.format.ts') || file.endsWith('.messages.en.ts')) continue;
      text.split('\n').forEach((line, index) => {
        if (line.trim().startsWith('//') || line.trim().startsWith('*')) return;
        if (handMade.some((pattern) => pattern.test(line))) offences.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(offences).toEqual([]);
  });
});
