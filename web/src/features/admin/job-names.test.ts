import { describe, expect, it } from 'vitest';
import { countMessage } from '../../lib/i18n/i18n.store';
import { en } from '../../app/catalogue.en';
import { he } from '../../app/catalogue.he';
import { JOB_LABELS, jobLabelKey } from './job-names';

// The server's source (Vite reads it for the test): every `jobKind('name', ...)` it declares.
const serverSources = import.meta.glob<string>(['../../../../server/src/**/*.ts', '!../../../../server/src/**/*.test.ts'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

function serverJobKinds(): string[] {
  return Object.values(serverSources).flatMap((text) => [...text.matchAll(/jobKind(?:<[^>]*>)?\(\s*'([a-z][\w.-]*)'/g)].map((match) => match[1]!));
}

describe('background job names on the admin page', () => {
  it('labels every kind of job the server declares, in both languages', () => {
    const kinds = serverJobKinds();
    expect(kinds.length).toBeGreaterThan(5);
    expect(kinds.filter((kind) => jobLabelKey(kind) === null)).toEqual([]);
    for (const key of Object.values(JOB_LABELS)) {
      expect(en[key]).toMatch(/\S/);
      expect(he[key]).toMatch(/\p{Script=Hebrew}/u);
    }
    expect(jobLabelKey('toString')).toBeNull();
  });

  it('says "1 file" and "2 files", "קובץ אחד" and "2 קבצים"', () => {
    expect(countMessage(en, 'adminStorageFiles', 1, 'en')).toBe('1 file');
    expect(countMessage(en, 'adminStorageFiles', 2, 'en')).toBe('2 files');
    expect(countMessage(en, 'adminStorageFiles', 1200, 'en')).toBe('1,200 files');
    expect(countMessage(he, 'adminStorageFiles', 1, 'he')).toBe('קובץ אחד');
    expect(countMessage(he, 'adminStorageFiles', 2, 'he')).toBe('2 קבצים');
    expect(countMessage(en, 'adminFolderSongs', 1, 'en')).toBe('1 song');
  });
});
