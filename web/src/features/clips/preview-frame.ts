/**
 * The soft wipe's edge (common/clip-timeline's `soft-wipe`, ffmpeg's xfade `smoothleft`): how
 * much of the incoming picture shows at a share `x` (0 left, 1 right) of the frame's width when
 * the transition is `mix` (0-1) through. The incoming picture shows from the right edge first,
 * through a smoothstep a frame wide.
 */
export function softWipeAlpha(x: number, mix: number): number {
  const t = Math.min(1, Math.max(0, x + 2 * mix - 1));
  return t * t * (3 - 2 * t);
}
