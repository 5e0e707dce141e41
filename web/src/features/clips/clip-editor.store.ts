import type { ClipLyrics } from '@encore/common/clip-text';
import { DEFAULT_CLIP_SETTINGS, type ClipSettings } from '@encore/common/clips.contract';
import type { Word } from '@encore/common/words.contract';
import { createStore, useStore } from '../../lib/create-store';
import { addMedia, EMPTY_MEDIA, moveMedia, removeMedia, type MediaSelection } from './media-selection';
import { releaseMediaUrls } from './use-media-urls';

export type ClipEditorTab = 'media' | 'text' | 'effects';
export type ClipEditorMode = 'edit' | 'preview';

export interface ChosenSong {
  id: number;
  displayName: string;
}

/** SPEC 3's clip editor draft: tab, mode, settings, the chosen song, its words and the media. */
export interface ClipEditorState {
  tab: ClipEditorTab;
  mode: ClipEditorMode;
  settings: ClipSettings;
  song: ChosenSong | null;
  /** The words held in app state; they replace the settings' words at creation (SPEC 3). */
  words: Word[];
  /** The chosen song's lyrics: the preview draws them when there are no words, as the renderer does. */
  lyrics: ClipLyrics | null;
  media: MediaSelection;
  /** The advanced-effects toggle reveals the four advanced switches. */
  showAdvanced: boolean;
}

export const INITIAL_CLIP_EDITOR: ClipEditorState = {
  tab: 'media',
  mode: 'edit',
  settings: DEFAULT_CLIP_SETTINGS,
  song: null,
  words: [],
  lyrics: null,
  media: EMPTY_MEDIA,
  showAdvanced: false,
};

export const clipEditorStore = createStore<ClipEditorState>(INITIAL_CLIP_EDITOR);

export function useClipEditor<S>(selector: (state: ClipEditorState) => S): S {
  return useStore(clipEditorStore, selector);
}

export const clipEditor = {
  setTab: (tab: ClipEditorTab) => clipEditorStore.setState({ tab }),
  setMode: (mode: ClipEditorMode) => clipEditorStore.setState({ mode }),
  setShowAdvanced: (showAdvanced: boolean) => clipEditorStore.setState({ showAdvanced }),
  update: (patch: Partial<ClipSettings>) => clipEditorStore.setState((state) => ({ settings: { ...state.settings, ...patch } })),
  chooseSong: (song: ChosenSong | null) => clipEditorStore.setState({ song, words: [], lyrics: null }),
  setWords: (words: Word[]) => clipEditorStore.setState({ words }),
  /** The chosen song's lyrics arrived: its timed words become the words in app state. */
  setLyrics: (words: Word[], lyrics: ClipLyrics | null) => clipEditorStore.setState({ words, lyrics }),
  addFiles: (files: readonly File[]) => clipEditorStore.setState((state) => ({ media: addMedia(state.media, files) })),
  removeFile: (id: string) => {
    const removed = clipEditorStore.getState().media.items.filter((item) => item.id === id);
    clipEditorStore.setState((state) => ({ media: removeMedia(state.media, id) }));
    releaseMediaUrls(removed.map((item) => item.file));
  },
  moveFile: (activeId: string, overId: string | null | undefined) => clipEditorStore.setState((state) => ({ media: moveMedia(state.media, activeId, overId) })),
  /** SPEC 4: clearing empties the files and the chosen song. */
  clear: () => {
    const files = clipEditorStore.getState().media.items.map((item) => item.file);
    clipEditorStore.setState({ media: EMPTY_MEDIA, song: null, words: [], lyrics: null });
    releaseMediaUrls(files);
  },
  reset: () => {
    releaseMediaUrls(clipEditorStore.getState().media.items.map((item) => item.file));
    clipEditorStore.setState(INITIAL_CLIP_EDITOR);
  },
};

/** The settings sent to create-clip: the words held in app state replace the settings' words (SPEC 3). */
export function settingsForCreation(state: Pick<ClipEditorState, 'settings' | 'words'>): ClipSettings {
  return { ...state.settings, words: state.words };
}
