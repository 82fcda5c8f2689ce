import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { dataOf } from '@/lib/api-client';
import { m } from '@/paraglide/messages';
import type { ReauthenticateBody, StaffMeBody } from '@/types/api-schema';

import { STAFF_ME_QUERY_KEY } from './get-staff-me';
import { staffApi } from './staff-client';

export const reauthenticateSchema = z.object({
  secret: z.string().refine((secret) => secret.trim() !== '', m['staff.reauth.validation.secretRequired']()),
});

export type ReauthenticateInput = z.infer<typeof reauthenticateSchema>;

/**
 * POST /staff/auth/reauthenticate: the password or a current app code (six digits) again; the
 * member, whose `reauthenticatedUntil` is five minutes from now. 422 with errors.secret when it
 * is wrong; 429 with Retry-After after 5 wrong ones in 15 minutes.
 */
export async function reauthenticate(input: ReauthenticateInput): Promise<StaffMeBody> {
  const { secret } = reauthenticateSchema.parse(input);
  // An app code may be pasted with spaces ('123 456'); a password is sent as typed.
  const code = secret.replace(/\s/g, '');
  const body: ReauthenticateBody = { secret: /^\d{6}$/.test(code) ? code : secret };
  return dataOf(await staffApi.POST('/staff/auth/reauthenticate', { body }));
}

export function useReauthenticate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reauthenticate,
    onSuccess: (me) => queryClient.setQueryData(STAFF_ME_QUERY_KEY, me),
  });
}
