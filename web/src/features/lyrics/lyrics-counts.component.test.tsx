import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../lib/i18n/i18n.store';
import { LyricsCounts } from './lyrics-counts.component';

afterEach(() => setLanguage('en'));

describe('lyrics counts', () => {
  it('says line and character in the singular for one, and in the plural otherwise', () => {
    const { rerender } = render(<LyricsCounts text="hey" />);
    expect(screen.getByTestId('lyrics-counts')).toHaveTextContent('1 line · 3 characters');
    rerender(<LyricsCounts text="a" />);
    expect(screen.getByTestId('lyrics-counts')).toHaveTextContent('1 line · 1 character');
    rerender(<LyricsCounts text={'one\ntwo'} />);
    expect(screen.getByTestId('lyrics-counts')).toHaveTextContent('2 lines · 7 characters');
    rerender(<LyricsCounts text={'x'.repeat(1234)} />);
    expect(screen.getByTestId('lyrics-counts')).toHaveTextContent('1 line · 1,234 characters');
  });

  it('in Hebrew too', () => {
    setLanguage('he');
    const { rerender } = render(<LyricsCounts text="a" />);
    expect(screen.getByTestId('lyrics-counts')).toHaveTextContent('שורה אחת · תו אחד');
    rerender(<LyricsCounts text={'one\ntwo'} />);
    expect(screen.getByTestId('lyrics-counts')).toHaveTextContent('2 שורות · 7 תווים');
  });
});
