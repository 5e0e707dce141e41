import { LIBRARY_DROPDOWN_WIDTH_PX } from '@encore/common/constants';
import { ChevronDown } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Popover, PopoverContent, PopoverTrigger } from '../components/ui/popover';
import { cn } from '../lib/cn';
import { useT } from '../lib/i18n/i18n.store';
import { LIBRARY_LINKS } from './library-links';

/** Library dropdown: 500 px wide, two columns; closes on an outside click or on choosing an entry. */
export function LibraryMenu({ triggerClassName }: { triggerClassName?: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger className={cn('group', triggerClassName)}>
        {t('navLibrary')}
        <ChevronDown aria-hidden className="size-4 transition-transform duration-200 group-data-[state=open]:rotate-180" />
      </PopoverTrigger>
      <PopoverContent align="center" style={{ width: LIBRARY_DROPDOWN_WIDTH_PX }} className="max-w-[calc(100vw-1.5rem)] p-3">
        <nav aria-label={t('navLibrary')}>
          <ul className="grid grid-cols-2 gap-2">
            {LIBRARY_LINKS.map((entry) => {
              const Icon = entry.icon;
              return (
                <li key={entry.to}>
                  <Link
                    to={entry.to}
                    onClick={() => setOpen(false)}
                    className="flex h-full flex-col gap-2 rounded-xl p-3 transition-colors outline-none hover:bg-white/5 focus-visible:bg-white/5 focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    <span className="flex items-center gap-2 text-sm font-semibold">
                      {Icon ? (
                        <span className="grid size-8 place-items-center rounded-lg bg-accent/15 text-fuchsia-300">
                          <Icon aria-hidden className="size-4" />
                        </span>
                      ) : null}
                      {t(entry.label)}
                    </span>
                    {entry.description ? <span className="text-xs leading-relaxed text-muted">{t(entry.description)}</span> : null}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      </PopoverContent>
    </Popover>
  );
}
