import { Search, X } from 'lucide-react';
import { cn } from '../lib/cn';
import { useT } from '../lib/i18n/i18n.store';
import { Button } from './ui/button';
import { Input } from './ui/input';

interface SearchBoxProps {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder: string;
  className?: string;
}

/** A search field with a Clear button while it holds text; Escape clears it too. */
export function SearchBox({ value, onChange, label, placeholder, className }: SearchBoxProps) {
  const t = useT();
  return (
    <div className={cn('relative', className)}>
      <Search aria-hidden className="pointer-events-none absolute start-3.5 top-1/2 size-4 -translate-y-1/2 text-subtle" />
      <Input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && value) onChange('');
        }}
        // Room for the Clear button only while it shows, so the placeholder fits on a phone.
        className={cn('ps-10 [&::-webkit-search-cancel-button]:hidden', value ? 'pe-24' : 'pe-3')}
      />
      {value ? (
        <Button variant="ghost" size="sm" onClick={() => onChange('')} className="absolute end-1.5 top-1/2 h-8 -translate-y-1/2 px-2.5">
          <X aria-hidden className="size-3.5" />
          {t('clear')}
        </Button>
      ) : null}
    </div>
  );
}
