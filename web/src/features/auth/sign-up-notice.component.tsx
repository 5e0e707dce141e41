import { Info, MailCheck } from 'lucide-react';
import type { ReactNode } from 'react';

/** A note of the auth screen: why there is no sign-up form, or that an invitation filled it in. */
export function SignUpNotice({ tone = 'info', children, testId }: { tone?: 'info' | 'invited'; children: ReactNode; testId?: string }) {
  const Icon = tone === 'invited' ? MailCheck : Info;
  return (
    <p
      role="status"
      data-testid={testId}
      className="flex items-start gap-2.5 rounded-xl border border-border bg-white/5 px-4 py-3 text-sm leading-relaxed text-muted"
    >
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0 text-fuchsia-300" />
      <span>{children}</span>
    </p>
  );
}
