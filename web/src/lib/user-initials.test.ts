import { describe, expect, it } from 'vitest';
import { userInitials } from './user-initials';

describe('userInitials', () => {
  it.each([
    ['john doe', 'JD'],
    ['Ada', 'A'],
    ['  mary   jane watson ', 'MJW'],
    ['dj_shadow', 'D'],
    ['נועה כהן', 'נכ'],
    ['émile zola', 'ÉZ'],
  ])('%j gives %j', (userName, initials) => {
    expect(userInitials(userName)).toBe(initials);
  });

  it('is empty without a name', () => {
    expect(userInitials(null)).toBe('');
    expect(userInitials('   ')).toBe('');
  });
});
