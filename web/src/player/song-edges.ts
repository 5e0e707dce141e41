/** The first and last seconds of a song, decoded: what a gapless join plays from buffers. */
export interface SongEdges {
  head: AudioBuffer;
  tail: AudioBuffer;
  /** The whole song's decoded length, in seconds (the tail ends there). */
  duration: number;
}

function slice(context: BaseAudioContext, source: AudioBuffer, from: number, length: number): AudioBuffer {
  const part = context.createBuffer(source.numberOfChannels, Math.max(1, length), source.sampleRate);
  for (let channel = 0; channel < source.numberOfChannels; channel += 1) {
    part.copyToChannel(source.getChannelData(channel).subarray(from, from + length), channel);
  }
  return part;
}

/**
 * Decodes the song and keeps only its first and last `seconds` (the whole song when shorter),
 * so a long song costs its full size in memory only while it decodes. `bytes` is not detached.
 */
export async function decodeEdges(context: BaseAudioContext, bytes: ArrayBuffer, seconds: number): Promise<SongEdges> {
  const decoded = await context.decodeAudioData(bytes.slice(0));
  const edge = Math.min(decoded.length, Math.round(seconds * decoded.sampleRate));
  return {
    head: slice(context, decoded, 0, edge),
    tail: slice(context, decoded, decoded.length - edge, edge),
    duration: decoded.duration,
  };
}
