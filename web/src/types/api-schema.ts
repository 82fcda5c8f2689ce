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
