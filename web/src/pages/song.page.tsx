import { SongSound } from '../features/discovery/song-sound.component';
import { AddToPlaylistButton } from '../features/playlists/add-to-playlist.component';
import { ShareSongDialog } from '../features/sharing/share-song-dialog.component';
import { SongPage } from '../features/library/song.page';
import { LyricsPanel } from '../features/lyrics/lyrics-panel.component';

/**
 * Pages that bring several features together are composed here, outside features/, so no
 * feature imports another (eslint.config.js enforces it): the library's song page with the
 * playlists' Add to Playlist, the sharing dialog, discovery's sound line with More like this
 * and the lyrics panel.
 */
const addOns = { AddToPlaylist: AddToPlaylistButton, ShareDialog: ShareSongDialog, SongSound, LyricsPanel };

export function ComposedSongPage() {
  return <SongPage addOns={addOns} />;
}
