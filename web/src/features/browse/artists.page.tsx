import { useMemo, useState } from 'react';
import { ListPageHeader } from '../../components/list-page-header';
import { SearchBox } from '../../components/search-box';
import { useT } from '../../lib/i18n/i18n.store';
import { useDebounced } from '../../lib/use-debounced';
import { useDocumentTitle } from '../../lib/use-document-title';
import { ArtistCard } from './album-card.component';
import { PagedList } from './browse-list.component';
import { useArtistPages } from './browse.queries';

const LETTERS = ['#', ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];

/** The letter an artist is filed under in the jump bar: A-Z, else '#'. */
function letterOf(name: string): string {
  const first = name
    .replace(/^the\s+/iu, '')
    .normalize('NFD')
    .charAt(0)
    .toUpperCase();
  return /[A-Z]/.test(first) ? first : '#';
}

/** Artists (issue 38): search, an A-Z jump bar, a grid of artists paged on the server. */
export function ArtistsPage() {
  const t = useT();
  useDocumentTitle('libraryArtists');
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 250);
  const query = useArtistPages(q ? { q } : {});
  const artists = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  const firstOf = useMemo(() => {
    const first = new Map<string, string>();
    for (const artist of artists) if (!first.has(letterOf(artist.name))) first.set(letterOf(artist.name), artist.id);
    return first;
  }, [artists]);

  return (
    <div className="relative isolate mx-auto w-full max-w-6xl px-4 pt-28 pb-16 sm:px-6">
      <ListPageHeader title={t('libraryArtists')} subtitle={t('browseArtistsSubtitle')} action={null} />
      <SearchBox className="mt-7" label={t('browseSearchArtists')} placeholder={t('browseSearchArtists')} value={search} onChange={setSearch} />
      <nav aria-label={t('browseJumpTo')} className="mt-4" dir="ltr">
        <ul className="flex flex-wrap gap-1">
          {LETTERS.map((letter) => {
            const target = firstOf.get(letter);
            return (
              <li key={letter}>
                <a
                  href={target ? `#artist-${target}` : undefined}
                  aria-disabled={target ? undefined : true}
                  className={`grid size-8 place-items-center rounded-md text-xs font-semibold ${target ? 'text-foreground hover:bg-white/10 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none' : 'text-muted/50'}`}
                >
                  {letter}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      <section aria-label={t('libraryArtists')} className="mt-6">
        <PagedList query={query} count={artists.length}>
          <ul className="grid grid-cols-2 gap-5 sm:grid-cols-4 lg:grid-cols-6">
            {artists.map((artist) => (
              <li key={artist.id} id={`artist-${artist.id}`} className="scroll-mt-28">
                <ArtistCard artist={artist} />
              </li>
            ))}
          </ul>
        </PagedList>
      </section>
    </div>
  );
}
