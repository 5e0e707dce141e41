import { MusicPage } from '../features/library/music.page';
import { MusicFoldersPanel } from '../features/music-folders/music-folders-panel.component';

/**
 * The library's music page with the music folders' scan bar (issue 27) on All Music, composed
 * here so that neither feature imports the other (eslint.config.js enforces it).
 */
const addOns = { MusicFoldersPanel };

export function ComposedMusicPage() {
  return <MusicPage addOns={addOns} />;
}
