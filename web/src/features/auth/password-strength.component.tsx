import { passwordStrength, type PasswordStrengthLabel } from '@encore/common/auth.rules';
import type { MessageKey } from '../../lib/i18n/catalogue';
import { useT } from '../../lib/i18n/i18n.store';
import { cn } from '../../lib/cn';

const LABEL_KEYS: Record<PasswordStrengthLabel, MessageKey> = {
  Weak: 'strengthWeak',
  Fair: 'strengthFair',
  Good: 'strengthGood',
  Strong: 'strengthStrong',
};

const SCORE_COLOURS = ['bg-rose-500', 'bg-rose-500', 'bg-amber-400', 'bg-sky-400', 'bg-emerald-400'];

/** Four bars, one per point of SPEC 5 (length, uppercase, digit, symbol), and the label. */
export function PasswordStrength({ password }: { password: string }) {
  const t = useT();
  if (!password) return null;
  const { score, label } = passwordStrength(password);
  const colour = SCORE_COLOURS[score] ?? 'bg-rose-500';
  return (
    <div className="flex flex-col gap-1.5" data-score={score}>
      <div className="grid grid-cols-4 gap-1.5" aria-hidden>
        {[1, 2, 3, 4].map((point) => (
          <span key={point} className={cn('h-1.5 rounded-full transition-colors duration-300', point <= score ? colour : 'bg-white/10')} />
        ))}
      </div>
      <p aria-live="polite" className="text-xs text-muted">
        {t('passwordStrength', { label: t(LABEL_KEYS[label]) })}
      </p>
    </div>
  );
}
