import { z } from 'zod';

/**
 * How sung text looks: SPEC 3's Text style settings (word-timing editor preview) and the text
 * half of its Clip settings (Song2Clip), defined once with the defaults of SPEC 3 and the
 * slider limits of SPEC 5. The word editor's preview, the clip editor's live canvas and the
 * renderer's ASS subtitles all read this one shape.
 */

export const TEXT_POSITIONS = ['top', 'center', 'bottom'] as const;
export const TEXT_ANIMATIONS = ['fade', 'slide', 'zoom', 'bounce', 'pulse', 'none'] as const;
export const FONT_FAMILIES = ['sans-serif', 'serif', 'monospace', 'cursive', 'fantasy'] as const;
export const TEXT_ALIGNS = ['left', 'center', 'right'] as const;

export type TextPosition = (typeof TEXT_POSITIONS)[number];
export type TextAnimation = (typeof TEXT_ANIMATIONS)[number];
export type FontFamily = (typeof FONT_FAMILIES)[number];
export type TextAlign = (typeof TEXT_ALIGNS)[number];

/** SPEC 5's sliders: [min, max, step]. */
export const TEXT_STYLE_LIMITS = {
  fontSize: { min: 10, max: 72, step: 1 },
  letterSpacing: { min: -2, max: 10, step: 0.5 },
  lineHeight: { min: 0.8, max: 2.5, step: 0.1 },
  backgroundOpacity: { min: 0, max: 100, step: 5 },
  borderRadius: { min: 0, max: 30, step: 1 },
  padding: { min: 0, max: 30, step: 1 },
} as const;

/** A CSS-like colour: #rgb, #rrggbb, #rrggbbaa, rgb(...) or rgba(...). */
const COLOR_PATTERN = /^(#[0-9a-f]{3}|#[0-9a-f]{6}|#[0-9a-f]{8}|rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(,\s*(0|1|0?\.\d+|1\.0+)\s*)?\))$/i;
export const colorSchema = z.string().max(64).regex(COLOR_PATTERN, { error: 'Colours are #rrggbb, rgb(r, g, b) or rgba(r, g, b, a)' });

function ranged(name: keyof typeof TEXT_STYLE_LIMITS, label: string) {
  const { min, max } = TEXT_STYLE_LIMITS[name];
  const message = `${label} must be from ${min} to ${max}`;
  return z.number({ error: message }).finite({ error: message }).min(min, { error: message }).max(max, { error: message });
}

export const textStyleSchema = z.object({
  /** SPEC 3 says top, center or bottom for clips and "middle" in the word editor: both mean center. */
  textPosition: z.preprocess((value) => (value === 'middle' ? 'center' : value), z.enum(TEXT_POSITIONS)),
  animation: z.enum(TEXT_ANIMATIONS),
  fontSize: ranged('fontSize', 'Font size'),
  textColor: colorSchema,
  fontFamily: z.enum(FONT_FAMILIES),
  textShadow: z.boolean(),
  textAlign: z.enum(TEXT_ALIGNS),
  textStyles: z.object({ bold: z.boolean(), italic: z.boolean(), underline: z.boolean() }),
  /** SPEC 3: rgba of black with the opacity; the opacity below is what the slider sets. */
  backgroundColor: colorSchema,
  backgroundOpacity: ranged('backgroundOpacity', 'Background opacity'),
  showBackground: z.boolean(),
  borderRadius: ranged('borderRadius', 'Corner radius'),
  padding: ranged('padding', 'Padding'),
  letterSpacing: ranged('letterSpacing', 'Letter spacing'),
  lineHeight: ranged('lineHeight', 'Line height'),
});

export type TextStyle = z.infer<typeof textStyleSchema>;

/** SPEC 3's defaults. */
export const DEFAULT_TEXT_STYLE: TextStyle = {
  textPosition: 'center',
  animation: 'fade',
  fontSize: 24,
  textColor: '#ffffff',
  fontFamily: 'sans-serif',
  textShadow: true,
  textAlign: 'center',
  textStyles: { bold: false, italic: false, underline: false },
  backgroundColor: 'rgba(0,0,0,0.5)',
  backgroundOpacity: 50,
  showBackground: true,
  borderRadius: 8,
  padding: 8,
  letterSpacing: 0,
  lineHeight: 1.2,
};

/** A partial style (a saved preference, a request that names a few fields) over the defaults. */
export const partialTextStyleSchema = textStyleSchema.partial();

export function withTextStyleDefaults(style: Partial<TextStyle> | undefined): TextStyle {
  return { ...DEFAULT_TEXT_STYLE, ...style, textStyles: { ...DEFAULT_TEXT_STYLE.textStyles, ...style?.textStyles } };
}

/** SPEC 3: the background is black at the chosen opacity. */
export function backgroundColorFor(opacityPercent: number): string {
  return `rgba(0,0,0,${Math.round(opacityPercent) / 100})`;
}
