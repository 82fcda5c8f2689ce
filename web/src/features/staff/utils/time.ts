/** Vietnam keeps UTC+7 all year (no daylight saving time). */
const VIETNAM_OFFSET_MS = 7 * 60 * 60 * 1000;

const pad2 = (value: number) => String(value).padStart(2, '0');

/**
 * A moment as "dd/MM/yyyy HH:mm:ss" (or without the seconds) in Vietnam time, whatever the
 * browser's time zone (staff compare the log with the server's and with each other's); a value
 * that is not a date as given, none as empty.
 */
export function formatVietnamTime(value: string | null | undefined, { seconds = true } = {}): string {
  if (!value) return '';
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  const vn = new Date(at.getTime() + VIETNAM_OFFSET_MS);
  const day = `${pad2(vn.getUTCDate())}/${pad2(vn.getUTCMonth() + 1)}/${vn.getUTCFullYear()}`;
  const time = `${pad2(vn.getUTCHours())}:${pad2(vn.getUTCMinutes())}`;
  return seconds ? `${day} ${time}:${pad2(vn.getUTCSeconds())}` : `${day} ${time}`;
}
