import type { MeasureRequest } from './measure-file.js';

/** What the server's thread and an analysis thread (analysis.worker.ts) say to each other. */
export type ToWorker = { id: number; request: MeasureRequest } | { cancel: number };
export type FromWorker = { id: number; result: unknown } | { id: number; error: string; cancelled: boolean };

/** The nice value of analysis threads and of the decodes they start: serving goes first. */
export const ANALYSIS_PRIORITY = 10;
