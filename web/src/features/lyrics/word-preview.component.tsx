import { backgroundColorFor, type TextStyle } from '@encore/common/text-style.contract';
import type { CSSProperties } from 'react';
import type { EditorWord } from './word-editor.state';

/** The words being sung at `time` (SPEC 4: while playing, the words are filtered by the current time). */
export function wordsAt(words: readonly EditorWord[], time: number): EditorWord[] {
  return words.filter((word) => word.start <= time && time < word.end);
}

/** The CSS of SPEC 3's text style settings, as the clip will show them. */
export function textStyleCss(style: TextStyle): CSSProperties {
  return {
    fontFamily: style.fontFamily,
    fontSize: `${style.fontSize}px`,
    color: style.textColor,
    textShadow: style.textShadow ? '0 2px 4px rgba(0,0,0,0.85), 0 0 12px rgba(0,0,0,0.5)' : 'none',
    background: style.showBackground ? backgroundColorFor(style.backgroundOpacity) : 'transparent',
    borderRadius: `${style.borderRadius}px`,
    padding: `${style.padding}px`,
    letterSpacing: `${style.letterSpacing}px`,
    lineHeight: style.lineHeight,
    textAlign: style.textAlign,
    fontWeight: style.textStyles.bold ? 700 : 400,
    fontStyle: style.textStyles.italic ? 'italic' : 'normal',
    textDecoration: style.textStyles.underline ? 'underline' : 'none',
  };
}

const positions: Record<TextStyle['textPosition'], string> = {
  top: 'flex-start',
  center: 'center',
  bottom: 'flex-end',
};

/** SPEC 3's animations, as each word appears. */
const ANIMATION_CSS = `
@keyframes encore-word-fade { from { opacity: 0 } to { opacity: 1 } }
@keyframes encore-word-slide { from { opacity: 0; transform: translateY(0.6em) } to { opacity: 1; transform: none } }
@keyframes encore-word-zoom { from { opacity: 0; transform: scale(0.4) } to { opacity: 1; transform: none } }
@keyframes encore-word-bounce { 0% { transform: translateY(-0.8em) } 55% { transform: translateY(0.15em) } 80% { transform: translateY(-0.08em) } 100% { transform: none } }
@keyframes encore-word-pulse { 0%, 100% { transform: scale(1) } 50% { transform: scale(1.12) } }
@media (prefers-reduced-motion: reduce) { [data-word-animation] { animation: none !important } }
`;

function animationFor(style: TextStyle): string | undefined {
  if (style.animation === 'none') return undefined;
  const duration = style.animation === 'pulse' ? '0.6s ease-in-out infinite' : '0.35s ease-out both';
  return `encore-word-${style.animation} ${duration}`;
}

interface WordPreviewProps {
  words: readonly EditorWord[];
  time: number;
  style: TextStyle;
  /** The song's cover, blurred behind the text; a dark gradient without one. */
  backgroundUrl?: string | null;
}

/** The preview stage: the current words styled as the clip will show them (SPEC 2, 4). */
export function WordPreview({ words, time, style, backgroundUrl }: WordPreviewProps) {
  const current = wordsAt(words, time);
  return (
    <div
      data-testid="word-preview"
      className="relative isolate flex aspect-video w-full overflow-hidden rounded-2xl bg-gradient-to-br from-fuchsia-950 via-background to-indigo-950 p-6 ring-1 ring-border"
      style={{
        alignItems: positions[style.textPosition],
        justifyContent: style.textAlign === 'left' ? 'flex-start' : style.textAlign === 'right' ? 'flex-end' : 'center',
      }}
    >
      <style>{ANIMATION_CSS}</style>
      {backgroundUrl ? <img src={backgroundUrl} alt="" className="absolute inset-0 -z-10 size-full scale-110 object-cover opacity-50 blur-xl" /> : null}
      {current.length > 0 ? (
        <p dir="auto" style={textStyleCss(style)} className="max-w-full break-words" data-testid="word-preview-text">
          {current.map((word, index) => (
            <span key={word.key} data-word-animation style={{ display: 'inline-block', animation: animationFor(style) }}>
              {word.text}
              {index < current.length - 1 ? '\u00a0' : null}
            </span>
          ))}
        </p>
      ) : null}
    </div>
  );
}
