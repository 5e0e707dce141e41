import type { RadioStation } from '@encore/common/radio.contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { player } from '../../player/player.store';

/**
 * A station plays in the page's own <audio> element, straight from its stream URL: a live
 * stream has no duration, no seeking, no play counting and no loudness gain, so it does not go
 * through the song player. The two never play together: starting a station pauses the player,
 * and the player starting stops the station.
 */
export function useRadioAudio(onFailure: () => void) {
  const audio = useRef<HTMLAudioElement>(null);
  const [playingId, setPlayingId] = useState<number | null>(null);
  const failure = useRef(onFailure);
  useEffect(() => {
    failure.current = onFailure;
  });

  const stop = useCallback(() => {
    const element = audio.current;
    if (element) {
      element.pause();
      if (element.getAttribute('src')) {
        element.removeAttribute('src');
        element.load(); // closes the stream
      }
    }
    setPlayingId(null);
  }, []);

  const start = useCallback(
    (station: RadioStation) => {
      const element = audio.current;
      if (!element) return;
      player.pause();
      element.src = station.streamUrl;
      setPlayingId(station.id);
      element.play().catch((error: unknown) => {
        // A newer start or a stop interrupted this one: nothing failed.
        if (error instanceof DOMException && error.name === 'AbortError') return;
        stop();
        failure.current();
      });
    },
    [stop],
  );

  // The player's volume is the radio's too; the player starting a song stops the station (a
  // start, not a song still playing: the pause a station asks for lands a moment later).
  useEffect(() => {
    let wasPlaying = player.getState().isPlaying;
    const follow = () => {
      const { isPlaying, volume } = player.getState();
      if (audio.current) audio.current.volume = volume;
      if (isPlaying && !wasPlaying && audio.current?.getAttribute('src')) stop();
      wasPlaying = isPlaying;
    };
    follow();
    return player.subscribe(follow);
  }, [stop]);

  // An error of the element itself (the stream is gone, not audio): stop and say so.
  const onError = useCallback(() => {
    if (!audio.current?.getAttribute('src')) return;
    stop();
    failure.current();
  }, [stop]);

  useEffect(() => stop, [stop]);

  return { audioRef: audio, playingId, start, stop, onError };
}
