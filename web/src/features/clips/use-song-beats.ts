import { OnsetDetector, ONSET_SAMPLE_RATE } from '@encore/common/clip-timeline';
import { useQuery } from '@tanstack/react-query';

/**
 * beatDetection in the preview: the song's onsets (song seconds) found by the renderer's pass
 * (common/clip-timeline) over the browser's decode of the song, mono at the pass's rate, so
 * the pictures change on the beats the render will use. Only asked for while beatDetection is
 * on with more than one picture.
 */
export function useSongBeats(songId: number | null, playUrl: string | undefined, enabled: boolean): readonly number[] | undefined {
  const beats = useQuery({
    queryKey: ['clips', 'song-beats', songId],
    queryFn: ({ signal }) => songOnsets(playUrl!, signal),
    enabled: enabled && songId !== null && playUrl !== undefined && typeof OfflineAudioContext === 'function',
    staleTime: Infinity,
    retry: false,
  });
  return beats.data;
}

async function songOnsets(url: string, signal: AbortSignal): Promise<number[]> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`The song could not be loaded (${response.status})`);
  // An offline context at the pass's rate: the decode is resampled to it.
  const context = new OfflineAudioContext(1, 1, ONSET_SAMPLE_RATE);
  const audio = await context.decodeAudioData(await response.arrayBuffer());
  const detector = new OnsetDetector(audio.sampleRate);
  const channels = Array.from({ length: audio.numberOfChannels }, (_, index) => audio.getChannelData(index));
  const CHUNK = 16_384;
  const mono = new Float32Array(CHUNK);
  for (let at = 0; at < audio.length; at += CHUNK) {
    const size = Math.min(CHUNK, audio.length - at);
    for (let i = 0; i < size; i++) {
      let sum = 0;
      for (const channel of channels) sum += channel[at + i] ?? 0;
      mono[i] = sum / channels.length;
    }
    detector.push(mono.subarray(0, size));
  }
  return detector.onsets;
}
