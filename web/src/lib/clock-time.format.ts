/**
 * A playback position as m:ss (SPEC 2), h:mm:ss from an hour up. Unknown or negative times
 * (a stream whose length is not known yet) read 0:00.
 */
export function formatClockTime(seconds: number | null | undefined): string {
  const whole = seconds !== null && seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secs}` : `${minutes}:${secs}`;
}
