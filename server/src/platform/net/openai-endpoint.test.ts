import { describe, expect, it } from 'vitest';
import { openAiEndpoint } from './openai-endpoint.js';

describe('openAiEndpoint', () => {
  it.each([
    ['https://api.openai.com', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/v1', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/v1/', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.groq.com/openai/v1', 'https://api.groq.com/openai/v1/chat/completions'],
    ['http://127.0.0.1:11434', 'http://127.0.0.1:11434/v1/chat/completions'],
    ['http://127.0.0.1:11434/v1', 'http://127.0.0.1:11434/v1/chat/completions'],
    ['https://generativelanguage.googleapis.com/v1beta/openai/', 'https://generativelanguage.googleapis.com/v1beta/openai/chat/completions'],
    ['http://127.0.0.1:1234/v1/chat/completions', 'http://127.0.0.1:1234/v1/chat/completions'],
    ['https://proxy.example/llm?tenant=a', 'https://proxy.example/llm/v1/chat/completions?tenant=a'],
  ])('reads the chat base %s as %s', (base, endpoint) => {
    expect(openAiEndpoint(base, 'chat/completions')).toBe(endpoint);
  });

  it.each([
    ['https://api.openai.com', 'https://api.openai.com/v1/audio/transcriptions'],
    ['https://api.openai.com/v1', 'https://api.openai.com/v1/audio/transcriptions'],
    ['https://api.groq.com/openai/v1', 'https://api.groq.com/openai/v1/audio/transcriptions'],
    ['http://whisper.lan:8000', 'http://whisper.lan:8000/v1/audio/transcriptions'],
  ])('reads the transcription base %s as %s', (base, endpoint) => {
    expect(openAiEndpoint(base, 'audio/transcriptions')).toBe(endpoint);
  });
});
