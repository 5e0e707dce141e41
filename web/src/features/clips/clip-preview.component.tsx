import { clipText } from '@encore/common/clip-text';
import { clipBeats, clipSpan, lineStarts, pictureBoundaries } from '@encore/common/clip-timeline';
import { CLIP_DEFAULT_DURATION_SECONDS } from '@encore/common/clips.contract';
import { useQuery } from '@tanstack/react-query';
import { Pause, Play } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Slider } from '../../components/ui/slider';
import { formatClockTime } from '../../lib/clock-time.format';
import { useT } from '../../lib/i18n/i18n.store';
import { fetchPlayUrl } from '../../player/player.api';
import { useClipEditor } from './clip-editor.store';
import { drawBackdrop, previewCanvasSize } from './preview-draw';
import { previewSubtitles } from './preview-subtitles';
import { useMediaUrls } from './use-media-urls';
import { useSongBeats } from './use-song-beats';
import { useSubtitleLayer } from './use-subtitle-layer';

/**
 * SPEC 2's live preview: the real song plays; a canvas draws the chosen pictures (with the
 * transition) or the video, and libass draws the words over it from the subtitle document the
 * renderer burns in, with the same fonts, at the song's position in the clip; the pictures
 * change when and as the render's do (common/clip-timeline): what the user sees while editing
 * is what the render makes. Without a song a 3 s clock runs (SPEC 3's
 * default duration). The page keys it by song, so a new song starts from a fresh state.
 */
export function ClipPreview() {
  const t = useT();
  const settings = useClipEditor((state) => state.settings);
  const song = useClipEditor((state) => state.song);
  const words = useClipEditor((state) => state.words);
  const lyrics = useClipEditor((state) => state.lyrics);
  const media = useClipEditor((state) => state.media);
  const urls = useMediaUrls(media.items);
  const canvas = useRef<HTMLCanvasElement>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [songDuration, setSongDuration] = useState<number | null>(null);
  // Bumped when a picture or the video has (new) pixels to draw.
  const [loaded, setLoaded] = useState(0);

  const playUrl = useQuery({
    queryKey: ['clips', 'play-url', song?.id],
    queryFn: ({ signal }) => fetchPlayUrl(song!.id, signal),
    enabled: song !== null,
    staleTime: 60_000,
  });
  const pictures = useMemo(() => {
    if (media.isVideo) return [];
    return media.items.map((item) => {
      const image = new Image();
      image.src = urls.get(item.id) ?? '';
      image.onload = () => setLoaded((n) => n + 1);
      return image;
    });
  }, [media, urls]);
  const videoUrl = media.isVideo && media.items[0] ? urls.get(media.items[0].id) : undefined;

  const { start, end } = clipSpan(settings, songDuration ?? CLIP_DEFAULT_DURATION_SECONDS);
  const moving = pictures.length > 1;
  const onsets = useSongBeats(song?.id ?? null, playUrl.data, moving && settings.beatDetection);
  const boundaries = useMemo(() => {
    let anchors: readonly number[] = [];
    if (moving && settings.beatDetection) anchors = onsets ? clipBeats(onsets, start, end - start) : [];
    else if (moving && settings.autoSync) anchors = lineStarts(clipText(words, lyrics).words, start);
    return pictureBoundaries(pictures.length, end - start, anchors);
  }, [moving, settings.beatDetection, settings.autoSync, onsets, words, lyrics, pictures.length, start, end]);
  const sampleText = t('clipSampleText');
  const subtitles = useMemo(() => previewSubtitles({ settings, words, lyrics, start, end, sampleText }), [settings, words, lyrics, start, end, sampleText]);
  const { host: textHost, state: textState } = useSubtitleLayer(subtitles, Math.max(0, time - start));

  // The clock: the song's position while it plays (or a plain clock without a song), looping within the clip.
  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    let last = performance.now();
    const tick = (now: number) => {
      const element = audio.current;
      setTime((previous) => {
        let next = element && song ? element.currentTime : previous + (now - last) / 1000;
        if (next >= end || next < start) {
          next = start;
          if (element && song) element.currentTime = start;
        }
        return next;
      });
      last = now;
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing, song, start, end]);

  useEffect(() => {
    const element = video.current;
    if (!element || !Number.isFinite(element.duration) || element.duration <= 0) return;
    const target = (time - start) % element.duration;
    if (Math.abs(element.currentTime - target) > 0.3) element.currentTime = target;
  }, [time, start]);

  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return;
    drawBackdrop(ctx, { settings, pictures, boundaries, video: video.current && videoUrl ? video.current : null, time, start, end });
  }, [settings, pictures, boundaries, videoUrl, time, start, end, loaded]);

  const toggle = async () => {
    const element = audio.current;
    if (playing) {
      element?.pause();
      void video.current?.pause();
      setPlaying(false);
      return;
    }
    if (time < start || time >= end) setTime(start);
    if (element && song && playUrl.data) {
      if (element.currentTime < start || element.currentTime >= end) element.currentTime = start;
      await element.play().catch(() => undefined);
    }
    void video.current?.play().catch(() => undefined);
    setPlaying(true);
  };

  const seek = (value: number) => {
    setTime(value);
    if (audio.current && song) audio.current.currentTime = value;
  };

  const size = previewCanvasSize(settings);
  return (
    <div className="flex flex-col gap-3">
      {/* The frame fits the column and at most 65 % of the window's height; the text layer lies exactly over the pictures. */}
      <div
        ref={textHost}
        data-testid="clip-preview"
        data-text-state={textState}
        className="relative mx-auto overflow-hidden rounded-xl bg-black ring-1 ring-border"
        style={{ aspectRatio: `${size.width} / ${size.height}`, width: `min(100%, calc(65vh * ${size.width} / ${size.height}))` }}
      >
        <canvas
          ref={canvas}
          width={size.width}
          height={size.height}
          role="img"
          aria-label={t('clipPreviewCanvas')}
          data-testid="clip-preview-canvas"
          className="absolute inset-0 size-full"
        />
      </div>
      {textState === 'unavailable' ? <p className="text-center text-xs text-muted">{t('clipPreviewTextUnavailable')}</p> : null}
      {playUrl.data ? (
        <audio
          ref={audio}
          src={playUrl.data}
          preload="metadata"
          onLoadedMetadata={(event) => setSongDuration(event.currentTarget.duration || null)}
          onEnded={() => setPlaying(false)}
          className="hidden"
        />
      ) : null}
      {videoUrl ? (
        <video
          ref={video}
          src={videoUrl}
          muted
          loop
          playsInline
          preload="auto"
          className="hidden"
          onLoadedData={() => setLoaded((n) => n + 1)}
          onSeeked={() => setLoaded((n) => n + 1)}
        />
      ) : null}
      <div className="flex items-center gap-3" dir="ltr">
        <button
          type="button"
          onClick={() => void toggle()}
          aria-label={playing ? t('clipPreviewPause') : t('clipPreviewPlay')}
          className="grid size-10 shrink-0 cursor-pointer place-items-center rounded-full bg-accent-gradient text-white outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {playing ? <Pause aria-hidden className="size-4" /> : <Play aria-hidden className="size-4" />}
        </button>
        <Slider dir="ltr" aria-label={t('clipPreviewPosition')} value={time} min={start} max={end} step={0.1} onValueChange={seek} className="flex-1" />
        <span className="text-xs text-muted tabular-nums">
          {formatClockTime(time)} / {formatClockTime(end)}
        </span>
      </div>
    </div>
  );
}
