/**
 * Reads an outside service's answer as text, at most `maxBytes` of it and (when given) within
 * `timeoutMs`: a misbehaving server must not fill memory or hold a job for ever. Errors say
 * which limit was hit; the caller turns them into its own message.
 */
export async function readBodyLimited(response: Response, maxBytes: number, timeoutMs?: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
  for (;;) {
    const next = await readBefore(reader, deadline);
    if (next.done) break;
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error('the answer is too large');
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function readBefore(reader: ReadableStreamDefaultReader<Uint8Array>, deadline: number | undefined) {
  if (deadline === undefined) return reader.read();
  const remaining = deadline - Date.now();
  if (remaining <= 0) {
    await reader.cancel();
    throw new Error('the answer took too long');
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      reader.read(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reader.cancel().catch(() => undefined);
          reject(new Error('the answer took too long'));
        }, remaining);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
