import type { Readable, Writable } from 'node:stream';

/** A terminal's input as Node gives it (process.stdin when it is a TTY). */
export interface TerminalInput extends Readable {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

export class PasswordInputError extends Error {}

/**
 * The password of a `user` command, never from the command line (argv is visible to every user
 * of the machine): on a terminal, typed twice without echo; otherwise the first line of stdin
 * (`printf '%s\n' "$PASSWORD" | … user create …`).
 */
export async function readPassword(input: TerminalInput, prompt: Writable): Promise<string> {
  if (!input.isTTY || !input.setRawMode) return firstLine(input);
  const password = await readHidden(input, prompt, 'Password: ');
  const again = await readHidden(input, prompt, 'Password again: ');
  if (password !== again) throw new PasswordInputError('The two passwords differ; nothing was changed.');
  return password;
}

/** The first line of a piped stdin, without its line break; an empty stdin is an error. */
async function firstLine(input: Readable): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    if (text.includes('\n')) break;
  }
  const [line = ''] = text.split('\n');
  if (!text) throw new PasswordInputError('No password on stdin: pipe it in (one line), or run the command in a terminal to type it.');
  return line.replace(/\r$/, '');
}

/** One line typed with no echo; Ctrl-C or Ctrl-D gives up. */
function readHidden(input: TerminalInput, prompt: Writable, question: string): Promise<string> {
  prompt.write(question);
  input.setRawMode?.(true);
  input.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode?.(false);
      input.pause();
      prompt.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of typeof chunk === 'string' ? chunk : chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003' || char === '\u0004') return done(new PasswordInputError('Stopped; nothing was changed.'));
        if (char === '\u007f' || char === '\b') typed = Array.from(typed).slice(0, -1).join('');
        else typed += char;
      }
    };
    input.on('data', onData);
  });
}
