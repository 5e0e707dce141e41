import { DEFAULT_TEXT_STYLE } from '@encore/common/text-style.contract';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TextStyleControls } from './text-style-controls.component';
import { WordPreview, wordsAt } from './word-preview.component';

const words = [
  { key: 'a', text: 'hello', start: 1, end: 1.5 },
  { key: 'b', text: 'there', start: 1.4, end: 2 },
  { key: 'c', text: 'world', start: 3, end: 3.5 },
];

function Harness({ time }: { time: number }) {
  const [style, setStyle] = useState(DEFAULT_TEXT_STYLE);
  return (
    <>
      <WordPreview words={words} time={time} style={style} />
      <TextStyleControls style={style} onChange={setStyle} />
    </>
  );
}

describe('word preview', () => {
  it('shows the words sung at the time (SPEC 4: filtered by the current time)', () => {
    expect(wordsAt(words, 0.5)).toEqual([]);
    expect(wordsAt(words, 1.45).map((word) => word.text)).toEqual(['hello', 'there']);
    expect(wordsAt(words, 2).map((word) => word.text)).toEqual([]);
    expect(wordsAt(words, 3.2).map((word) => word.text)).toEqual(['world']);
  });

  it('styles the text with the SPEC 3 defaults and follows every control', async () => {
    const user = userEvent.setup();
    render(<Harness time={1.45} />);
    const text = screen.getByTestId('word-preview-text');
    expect(text).toHaveTextContent('hello there');
    expect(text).toHaveStyle({
      fontSize: '24px',
      fontFamily: 'sans-serif',
      lineHeight: '1.2',
      padding: '8px',
      borderRadius: '8px',
      background: 'rgba(0, 0, 0, 0.5)',
      fontWeight: '400',
    });

    await user.selectOptions(screen.getByLabelText('Font'), 'serif');
    await user.selectOptions(screen.getByLabelText('Alignment'), 'right');
    await user.selectOptions(screen.getByLabelText('Position'), 'top');
    await user.click(screen.getByRole('checkbox', { name: 'Bold' }));
    await user.click(screen.getByRole('checkbox', { name: 'Italic' }));
    await user.click(screen.getByRole('checkbox', { name: 'Underline' }));
    expect(text).toHaveStyle({ fontFamily: 'serif', textAlign: 'right', fontWeight: '700', fontStyle: 'italic', textDecoration: 'underline' });
    expect(screen.getByTestId('word-preview')).toHaveStyle({ alignItems: 'flex-start', justifyContent: 'flex-end' });

    // SPEC 5: the font size slider runs 10 to 72; opacity, radius and padding only with a background.
    const size = screen.getByLabelText('Font size');
    expect(size).toHaveAttribute('min', '10');
    expect(size).toHaveAttribute('max', '72');
    expect(screen.getByLabelText('Corner radius')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Background' }));
    expect(screen.queryByLabelText('Corner radius')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Padding')).not.toBeInTheDocument();
    expect(text.style.background).toContain('transparent');
  });

  it('shows nothing between words', () => {
    render(<Harness time={2.5} />);
    expect(screen.queryByTestId('word-preview-text')).not.toBeInTheDocument();
  });
});
