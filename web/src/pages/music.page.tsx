import { BrowseSearchGroups } from '../features/browse/browse-search-groups.component';
import { MusicPage } from '../features/library/music.page';
import { MusicFoldersPanel } from '../features/music-folders/music-folders-panel.component';

/**
 * The library's music page with the music folders' scan bar (issue 27) on All Music and the
 * browse feature's artists and albums above a search's songs (issue 38), composed here so that
 * no feature imports another (eslint.config.js enforces it).
 */
const addOns = { MusicFoldersPanel, SearchGroups: BrowseSearchGroups };

export function ComposedMusicPage() {
  return <MusicPage addOns={addOns} />;
}
