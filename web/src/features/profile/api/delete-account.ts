import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';

import { paths } from '@/config/paths';
import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';
import { browser } from '@/lib/browser';
import { m } from '@/paraglide/messages';
import type { Closed, DeleteBody } from '@/types/api-schema';

/** The account's password. */
export const deleteAccountInputSchema = z.object({
  password: z.string().min(1, m['profile.personalData.delete.validation.passwordRequired']()),
});

export type DeleteAccountInput = z.infer<typeof deleteAccountInputSchema>;
export type DeleteAccountField = keyof DeleteAccountInput;

/**
 * POST /me/delete: 200 `{ closed, eraseAfter }` once the account is closed; the server ends
 * every session of the player and clears this browser's cookies. 422 with errors.password
 * (missing or wrong); 429 with Retry-After after too many wrong ones.
 */
export async function deleteAccount(input: DeleteAccountInput): Promise<Closed> {
  const body: DeleteBody = deleteAccountInputSchema.parse(input);
  await getCsrfCookie();
  return dataOf(await api.POST('/me/delete', { body }));
}

/** The public page that says the account is closed and when its personal data goes. */
export const accountClosedPath = (eraseAfter: string) =>
  `${paths.accountClosed}?${new URLSearchParams({ eraseAfter }).toString()}`;

/**
 * Closes the account, then leaves as signing out does: by a full page load, so nothing of the
 * closed account (the cached user, any query) stays in memory.
 */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: ({ eraseAfter }) => browser.assign(accountClosedPath(eraseAfter)),
  });
}
