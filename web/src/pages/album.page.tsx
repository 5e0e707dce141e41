import { AlbumPage } from '../features/browse/album.page';
import { AddSongsToPlaylistButton } from '../features/playlists/add-to-playlist.component';

/**
 * The browse feature's album page with the playlists' Add to Playlist (issue 38), composed here
 * so that neither feature imports the other (eslint.config.js enforces it).
 */
const addOns = { AddToPlaylist: AddSongsToPlaylistButton };

export function ComposedAlbumPage() {
  return <AlbumPage addOns={addOns} />;
}
