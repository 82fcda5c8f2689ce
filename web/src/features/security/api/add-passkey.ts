import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { api, dataOf } from '@/lib/api-client';
import { getCsrfCookie } from '@/lib/auth';
import { m } from '@/paraglide/messages';
import { apiLimits } from '@/types/api-limits.gen';
import type { NewPasskeyBody, Passkey } from '@/types/api-schema';

import { PASSKEYS_QUERY_KEY } from './get-passkeys';
import { startPasskeyRegistration } from './start-passkey-registration';

/** The longest name the server keeps, in characters. */
export const PASSKEY_NAME_MAX_LENGTH = apiLimits.NewPasskeyBody.name.maxLength;

/**
 * The current password, and a name the player may leave empty (the server then names the
 * passkey after the browser and system). The name is checked here as well as by the server, so
 * a name too long is said before the browser has made a passkey that would then not be kept.
 */
export const addPasskeyInputSchema = z.object({
  password: z.string().min(1, m['security.passkeys.validation.passwordRequired']()),
  name: z
    .string()
    .trim()
    .refine(
      (name) => [...name].length <= PASSKEY_NAME_MAX_LENGTH,
      m['security.passkeys.validation.nameMax']({ max: PASSKEY_NAME_MAX_LENGTH }),
    ),
});

export type AddPasskeyInput = z.input<typeof addPasskeyInputSchema>;
export type AddPasskeyField = keyof AddPasskeyInput;

/**
 * Adds a passkey in three steps: the password (POST /me/passkeys/options), the browser's
 * prompt that makes the passkey on this device, then POST /me/passkeys with its answer, which
 * answers the passkey as listed. Refusals: errors.password from the first step (or 409, 429);
 * a prompt the player closed or let time out rejects with the browser's NotAllowedError, one for
 * a device that holds a passkey of the account already with InvalidStateError; 422 with
 * errors.credential (the ceremony expired, the answer did not verify, the passkey is on an
 * account already) or errors.name from the last step.
 */
export async function addPasskey(input: AddPasskeyInput): Promise<Passkey> {
  const { password, name } = addPasskeyInputSchema.parse(input);
  const { ceremonyId, options } = await startPasskeyRegistration(password);
  // The WebAuthn library loads only now, not with the page.
  const { startRegistration } = await import('@simplewebauthn/browser');
  const optionsJSON = options as unknown as PublicKeyCredentialCreationOptionsJSON;
  const credential = await startRegistration({ optionsJSON });
  const body: NewPasskeyBody = { ceremonyId, credential: { ...credential }, name };
  await getCsrfCookie();
  return dataOf(await api.POST('/me/passkeys', { body }));
}

/** The mutation settles once the list has been read again, so the new passkey shows as the dialog closes. */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addPasskey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_QUERY_KEY }),
  });
}
