import type SharpModule from 'sharp';

let loading: Promise<typeof SharpModule> | undefined;

/**
 * sharp (libvips) loaded on first use: ~30 MB and a seventh of a second that a process which
 * never reads a cover or a clip picture (most of the time, all of them) does not pay at start.
 */
export function loadSharp(): Promise<typeof SharpModule> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}
