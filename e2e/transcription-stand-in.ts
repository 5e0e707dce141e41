/**
 * The browser tests' transcription engine: the server tests' OpenAI-protocol stand-in on a fixed
 * loopback port, started by Playwright beside Encore (playwright.config.ts) and stopped with it.
 * It finds the spoken bursts in the audio Encore sends and answers them as these words.
 */
import { openAiStandIn } from '../server/test/lyrics/openai-stand-in.js';
import { STAND_IN_WORDS } from './tests/stand-in-words.js';

const port = Number(process.env['STAND_IN_PORT']);
if (!Number.isInteger(port) || port <= 0) throw new Error('STAND_IN_PORT must be a port number');
// A second per request: long enough for the song page to show the transcription's progress.
const standIn = await openAiStandIn(STAND_IN_WORDS, { port, delayMs: 1500 });
const stop = () => void standIn.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
