/** True when error is a Node system error with one of the given codes (ENOENT, EISDIR...). */
export function isErrno(error: unknown, ...codes: string[]): boolean {
  return error instanceof Error && 'code' in error && codes.includes(String(error.code));
}
