import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';
import type { Ceremony, PasswordBody } from '@/types/api-schema';

/**
 * POST /me/passkeys/options: the current password first (a session alone cannot add a
 * passkey), then the options for the browser's prompt and the ceremony to answer within five
 * minutes. 422 with errors.password (missing or wrong), 409 with a message when the account has
 * its 10 passkeys already, 429 with Retry-After after too many wrong passwords.
 */
export async function startPasskeyRegistration(password: string): Promise<Ceremony> {
  const body: PasswordBody = { password };
  await getCsrfCookie();
  return dataOf(await api.POST('/me/passkeys/options', { body }));
}
