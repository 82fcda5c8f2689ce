import { env } from '@/config/env';

/** The largest image the server keeps with a message (it refuses a larger one with the same words). */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

/** The image types the server keeps; it judges a file by its bytes, whatever its name says. */
export const ATTACHMENT_ACCEPT = 'image/png,image/jpeg,image/webp';

/** GET /support/attachments/{id}: the image, served to its player only. */
export const attachmentUrl = (id: string) => `${env.API_URL}/support/attachments/${encodeURIComponent(id)}`;

/** A file's size for its name's line: "840 KB", "2.4 MB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
