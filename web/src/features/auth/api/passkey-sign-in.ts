import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie, userQueryOptions } from '@/lib/auth';
import type { PasskeySignInBody, User } from '@/types/api-schema';

/**
 * POST /auth/passkey/options, then the browser's prompt (the passkeys it holds for the portal;
 * none is named first), then POST /auth/passkey with its answer. Answers the user, signed in as
 * by a password (and without the code step: the passkey proved the player). 422 with
 * errors.credential when the passkey is refused or the ceremony expired, 429 when throttled; a
 * prompt the player closed or let time out rejects with the browser's NotAllowedError.
 */
export async function signInWithPasskey(remember: boolean): Promise<User> {
  await getCsrfCookie();
  const { ceremonyId, options } = dataOf(await api.POST('/auth/passkey/options'));
  // The WebAuthn library loads only now, not with the sign-in page.
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
  const credential = await startAuthentication({ optionsJSON });
  const body: PasskeySignInBody = { ceremonyId, credential: { ...credential }, remember };
  return dataOf(await api.POST('/auth/passkey', { body }));
}

/** As a sign-in with the password (useLogin): the current user is read again, and the guard leaves. */
export function usePasskeySignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signInWithPasskey,
    onSuccess: () => queryClient.fetchQuery({ ...userQueryOptions(), staleTime: 0 }),
  });
}
