import { Fragment, type ReactNode } from 'react';
import type { MessageKey } from './catalogue';
import { useT } from './i18n.store';

interface TransProps {
  k: MessageKey;
  /** Elements that replace `{name}` placeholders, such as links inside a sentence. */
  values: Record<string, ReactNode>;
}

/** A catalogue sentence with React elements in it; word order stays the translator's. */
export function Trans({ k, values }: TransProps) {
  const t = useT();
  const parts = t(k).split(/(\{\w+\})/g);
  return (
    <>
      {parts.map((part, index) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        return <Fragment key={index}>{name !== undefined && name in values ? values[name] : part}</Fragment>;
      })}
    </>
  );
}
