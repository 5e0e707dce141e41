/** The avatar fallback: the first letter of each word of the user name, upper-cased (SPEC 2). */
export function userInitials(userName: string | null | undefined): string {
  if (!userName) return '';
  return userName
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => Array.from(word)[0] ?? '')
    .join('')
    .toUpperCase();
}
