/**
 * An OpenAI-compatible server is configured by its base URL, which people spell two ways:
 * with the API's version, as the OpenAI SDKs do (`https://api.openai.com/v1`, Groq's
 * `https://api.groq.com/openai/v1`, LM Studio's `http://127.0.0.1:1234/v1`), or without it
 * (`https://api.openai.com`, Ollama's `http://127.0.0.1:11434`, a faster-whisper server).
 * Both mean the same server: a base with a version segment (`v1`, `v1beta`...) anywhere in
 * its path is used as it is, one without gets `/v1`; a URL that already ends with the
 * endpoint's own path is taken as the endpoint.
 */
export function openAiEndpoint(base: string, endpoint: 'chat/completions' | 'audio/transcriptions'): string {
  const url = new URL(base);
  const path = url.pathname.replace(/\/+$/u, '');
  const suffix = `/${endpoint}`;
  if (path.endsWith(suffix)) {
    url.pathname = path;
    return url.toString();
  }
  const versioned = path.split('/').some((segment) => /^v\d+(?:(?:alpha|beta)\d*)?$/iu.test(segment));
  url.pathname = `${path}${versioned ? '' : '/v1'}${suffix}`;
  return url.toString();
}
