import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PasswordStrength } from './password-strength.component';

describe('password strength meter', () => {
  it.each([
    ['abc', 'Weak', 0],
    ['abcdefgh', 'Weak', 1],
    ['Abcdefgh', 'Fair', 2],
    ['abc1!', 'Fair', 2],
    ['Abcdefg1', 'Good', 3],
    ['ABC1!', 'Good', 3],
    ['Abcdef1!', 'Strong', 4],
    ['correct Horse battery 9', 'Strong', 4],
  ])('%j is %s (%i points)', (password, label, score) => {
    const { container } = render(<PasswordStrength password={password} />);
    expect(screen.getByText(`Password strength: ${label}`)).toBeInTheDocument();
    expect(container.querySelector('[data-score]')).toHaveAttribute('data-score', String(score));
  });

  it('shows nothing for an empty password', () => {
    const { container } = render(<PasswordStrength password="" />);
    expect(container).toBeEmptyDOMElement();
  });
});
