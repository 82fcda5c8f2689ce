// Names for the schemas of the gateway's OpenAPI document (docs/api/openapi.json), whose types
// openapi.gen.ts holds (`npm run api:generate`). Aliases only: every field comes from the document.
import type { components } from './openapi.gen';

export type CardBody = components['schemas']['CardBody'];
export type CardFee = components['schemas']['CardFee'];
export type CardProvider = components['schemas']['CardProvider'];
export type CardSent = components['schemas']['CardSent'];
export type Character = components['schemas']['Character'];
export type CodeBody = components['schemas']['CodeBody'];
export type CoinOrder = components['schemas']['CoinOrder'];
export type CoinRechargeBody = components['schemas']['CoinRechargeBody'];
export type ErrorBody = components['schemas']['ErrorBody'];
export type GiftcodeRedeemed = components['schemas']['GiftcodeRedeemed'];
export type GiftDestination = components['schemas']['GiftDestination'];
export type GiftItem = components['schemas']['GiftItem'];
export type GrantStatus = components['schemas']['GrantStatus'];
export type Neutral = components['schemas']['Neutral'];
export type PayableValue = components['schemas']['PayableValue'];
export type PaymentMethods = components['schemas']['PaymentMethods'];
export type Product = components['schemas']['Product'];
export type ProfileBody = components['schemas']['ProfileBody'];
export type RechargeEvent = components['schemas']['RechargeEvent'];
export type RechargeInfo = components['schemas']['RechargeInfo'];
export type RedeemBody = components['schemas']['RedeemBody'];
export type RelatedTransaction = components['schemas']['RelatedTransaction'];
export type Sent = components['schemas']['Sent'];
export type Session = components['schemas']['Session'];
export type Transaction = components['schemas']['Transaction'];
export type TransactionPage = components['schemas']['TransactionPage'];
export type TransactionPayload = components['schemas']['TransactionPayload'];
export type TransferMethod = components['schemas']['TransferMethod'];
export type User = components['schemas']['User'];
export type Validity = components['schemas']['Validity'];
export type Zone = components['schemas']['Zone'];

// Two-factor (TOTP): the gateway serves these calls, but docs/api/openapi.json does not describe
// them yet. Written by hand after the gateway's schemas of the same names (gateway/src/api/
// two_factor.rs and auth.rs); once the document is regenerated they become aliases as above.

/** POST /me/two-factor/totp: the secret to add to the authenticator app. */
export type Enrolment = {
  /** Base32, for typing into the app by hand. */
  secret: string;
  /** `otpauth://totp/Kid:{username}?…`, for the QR code. */
  otpauthUrl: string;
};

/** POST /me/two-factor/totp/confirm's body: six digits from the authenticator app. */
export type ConfirmBody = { code: string };

/** POST /me/two-factor/totp/confirm: ten single-use codes, shown only now. */
export type RecoveryCodes = { recoveryCodes: string[] };

/** DELETE /me/two-factor/totp's body: the password and a code (from the app, or a recovery code). */
export type DisableBody = { password: string; code: string };

/** POST /auth/login's answer while two-factor is on: the session waits for the second factor. */
export type TwoFactorRequired = { twoFactorRequired: true };

/** POST /auth/login's answer: the player, or a request for the second factor. */
export type LoginAnswer = User | TwoFactorRequired;

/** POST /auth/login/two-factor's body: six digits from the app, or an unused recovery code. */
export type SecondFactorBody = { code: string };
