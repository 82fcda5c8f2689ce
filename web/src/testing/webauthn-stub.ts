import type * as WebAuthnModule from '@simplewebauthn/browser';
import { vi } from 'vitest';

import { AUTHENTICATOR_CREDENTIAL_ID } from './mocks/passkey-handlers';

/** How the browser's prompt ends: the player confirms, closes it, or the browser fails. */
export type PromptOutcome = 'confirm' | 'dismiss' | 'already-registered' | 'fail';

/**
 * A stand-in for the browser's passkey prompt behind @simplewebauthn/browser (jsdom has no
 * WebAuthn): how the next prompt ends, and the options each prompt was given. The authenticator
 * holds one passkey, AUTHENTICATOR_CREDENTIAL_ID, which a registration makes and a sign-in
 * answers with. A test file installs it with
 *
 *   vi.mock('@simplewebauthn/browser', async (importOriginal) =>
 *     (await import('@/testing/webauthn-stub')).stubWebAuthn(await importOriginal()));
 *
 * and calls `webauthnStub.reset()` before each test; `withWebAuthn()` gives jsdom the
 * `PublicKeyCredential` the app looks for before it offers passkeys.
 */
export const webauthnStub = {
  outcome: 'confirm' as PromptOutcome,
  registrations: [] as WebAuthnModule.PublicKeyCredentialCreationOptionsJSON[],
  authentications: [] as WebAuthnModule.PublicKeyCredentialRequestOptionsJSON[],
  reset() {
    webauthnStub.outcome = 'confirm';
    webauthnStub.registrations = [];
    webauthnStub.authentications = [];
  },
};

/** The browser's errors as the library passes them on (a WebAuthnError named after its cause). */
function promptError(actual: typeof WebAuthnModule): Error | null {
  const fail = (name: string, message: string) =>
    new actual.WebAuthnError({
      message,
      code: 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY',
      cause: new DOMException(message, name),
    });
  switch (webauthnStub.outcome) {
    case 'confirm':
      return null;
    case 'dismiss':
      return fail('NotAllowedError', 'The operation either timed out or was not allowed.');
    case 'already-registered':
      return fail('InvalidStateError', 'The authenticator was previously registered');
    case 'fail':
      return fail('UnknownError', 'The authenticator was unable to process the specified options');
  }
}

export function stubWebAuthn(actual: typeof WebAuthnModule): typeof WebAuthnModule {
  return {
    ...actual,
    startRegistration: ({ optionsJSON }): Promise<WebAuthnModule.RegistrationResponseJSON> => {
      webauthnStub.registrations.push(optionsJSON);
      const error = promptError(actual);
      if (error) return Promise.reject(error);
      return Promise.resolve({
        id: AUTHENTICATOR_CREDENTIAL_ID,
        rawId: AUTHENTICATOR_CREDENTIAL_ID,
        type: 'public-key',
        response: { clientDataJSON: 'e30', attestationObject: 'o2NmbXRkbm9uZQ', transports: ['internal'] },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      });
    },
    startAuthentication: ({ optionsJSON }): Promise<WebAuthnModule.AuthenticationResponseJSON> => {
      webauthnStub.authentications.push(optionsJSON);
      const error = promptError(actual);
      if (error) return Promise.reject(error);
      return Promise.resolve({
        id: AUTHENTICATOR_CREDENTIAL_ID,
        rawId: AUTHENTICATOR_CREDENTIAL_ID,
        type: 'public-key',
        response: { clientDataJSON: 'e30', authenticatorData: 'YXV0aA', signature: 'c2ln', userHandle: 'dXNlci1pZA' },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      });
    },
  };
}

/** A browser with WebAuthn: jsdom has no `PublicKeyCredential`. Undone after each test. */
export function withWebAuthn() {
  vi.stubGlobal('PublicKeyCredential', class PublicKeyCredential {});
}
