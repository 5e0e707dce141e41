/**
 * Hands a blob to the browser's download manager under `fileName`. Calls that need the bearer
 * header cannot be plain links, so their answers are fetched and saved from memory.
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; a minute is ample.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
