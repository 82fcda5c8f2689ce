/** The signed-in user, as GET /me returns it. */
export type User = {
  username: string;
  email: string;
  verifiedAt: string | null;
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  dob: string | null;
  language: string;
  phoneNumber: string | null;
  createdAt: string;
  passwordChangedAt: string | null;
  mfaEnabled: boolean;
  /** KP balance. */
  credit: number;
  /** Debt in KP, settled first by the next top-up. */
  debtCredit: number;
  isPayPartner: boolean;
  /** VND topped up over the last 28 days. */
  payAmountLast28Days: number;
};

/** Transaction types the portal knows how to describe; the server may send others. */
export type TransactionType =
  | 'topup.bank-transfer'
  | 'topup.e-wallet'
  | 'topup.card'
  | 'credit.pay'
  | 'credit.recharge'
  | 'credit.bonus'
  | 'credit.recall'
  | 'credit.refund';

/** Known values plus any other string, keeping editor completion for the known ones. */
type Open<T extends string> = T | (string & {});

export type TransactionStatus = 'pending' | 'success' | 'failed';

/** Why a card top-up failed. */
export type CardErrorCode = 'WRONG_AMOUNT' | 'NOT_FOUND' | 'INVALID';

export type TransactionPayload = {
  /** Bank or e-wallet code (bank-transfer and e-wallet top-ups). */
  source?: string;
  /** Card provider code (card top-ups); carriers may arrive upper case. */
  provider?: string;
  /** Card serial. */
  serial?: string;
  errorCode?: Open<CardErrorCode>;
  /** What a credit payment bought (credit.pay only). */
  metadata?: {
    coin?: number;
    coinBonus?: number;
    productCode?: string;
    productName?: string;
    coinName?: string;
  };
};

/** A ledger entry caused by a transaction, e.g. the KP a top-up credited. */
export type RelatedTransaction = {
  id: string;
  type: Open<TransactionType>;
  realValue: number;
};

/** One entry of GET /payment/transaction-history. */
export type Transaction = {
  id: string;
  type: Open<TransactionType>;
  status: Open<TransactionStatus>;
  /** VND for top-ups (amount transferred or card value), KP for credit.pay (KP spent). */
  realValue: number;
  currency: Open<'VND' | 'KP'>;
  /** RFC 3339; null when the server has no time for it. */
  updatedAt: string | null;
  payload: TransactionPayload;
  relatedTransactions: RelatedTransaction[];
};

/** The actions a security code confirms (spec section 3); POST /me/security-code/ mails one. */
export type SecurityCodeAction =
  | 'confirm.email'
  | 'confirm.phone_number'
  | 'confirm.payment'
  | 'confirm.change_password'
  | 'confirm.change_email'
  | 'approve.login';

/** One signed-in session of the player, as GET /me/sessions lists it. */
export type UserSession = {
  /** An opaque handle naming the session for DELETE /me/sessions/{id}; never the session's own id. */
  id: string;
  userAgent: string;
  ip: string;
  /** RFC 3339; null when unknown. */
  createdAt: string | null;
  /** RFC 3339; null when unknown. */
  lastSeenAt: string | null;
  /** The session of this browser. */
  current: boolean;
  /** Signed in with 'Ghi nhớ đăng nhập'. */
  remember: boolean;
};

/** Banks and e-wallets the portal knows by name; the server may list others. */
export type TransferMethodCode = 'vietcombank' | 'techcombank' | 'momo' | 'viettelpay';

/** A bank or e-wallet account to transfer to, as GET /payment/methods lists it. */
export type TransferMethod = {
  code: Open<TransferMethodCode>;
  name: string;
  /** KP per VND. */
  exchangeRate: number;
  /** The VietQR payload of a transfer to this account carrying the player's content; empty when the method takes no VietQR. */
  qrCodeData: string;
  /** The player's own transfer content, e.g. "KIDAB23CD4". */
  paymentSyntax: string;
  accountName: string;
  accountNumber: string;
  /** The phone number an e-wallet account is reached by; empty for a bank. */
  mobileAccountNumber: string;
  type: 'bank-transfer' | 'e-wallet';
};

/** Phone and game card brands (spec section 3). */
export type CardProviderCode =
  | 'viettel'
  | 'vinaphone'
  | 'mobifone'
  | 'vietnamobile'
  | 'zing'
  | 'gate'
  | 'vtc'
  | 'garena';

/** A card brand the portal takes, with its face values in VND. */
export type CardProvider = {
  code: Open<CardProviderCode>;
  name: string;
  /** KP per VND, before the card fee. */
  exchangeRate: number;
  payableValues: number[];
  /** False for a brand temporarily not taken ('Thẻ {provider} tạm thời chưa được hỗ trợ'). */
  enabled: boolean;
};

/** GET /payment/methods. */
export type PaymentMethods = {
  bankTransfers: TransferMethod[];
  eWallets: TransferMethod[];
  cards: CardProvider[];
};

/** One row of GET /payment/card-recharge/fees: the fee for one brand and face value. */
export type CardFee = {
  provider: string;
  value: number;
  feePercent: number;
};

/** POST /payment/card-recharge's answer (202): the card is on its way to the aggregator. */
export type CardRechargeSent = {
  orderId: string;
  message: string;
};

/** Game codes the portal knows (spec section 2); the server may list others. */
export type ProductCode = 'fsonline' | 'jxonline2' | 'jxsj2';

/** One game of GET /product. */
export type Product = {
  code: Open<ProductCode>;
  name: string;
  /** A path or URL of the game's logo. */
  logoImg: string;
};

/** A game server coin can be sent to. */
export type Zone = {
  id: number;
  description: string;
};

/** An amount tile: what it costs in KP and the coin it brings. */
export type PayableValue = {
  credit: number;
  coinsReceived: number;
  coinsBonus: number;
};

export type RechargeEventType = 'recharge.bonus_coin' | 'recharge.bonus_lottery_point';

/** An active top-up event of a game: extra coin, or lottery points per 100 coin. */
export type RechargeEvent = {
  name: string;
  type: Open<RechargeEventType>;
  config: {
    /** recharge.bonus_coin: extra coin as a fraction of the coin bought (0.1 = 10%). */
    coinBonusRate?: number;
    /** recharge.bonus_lottery_point: extpointRate × 100 points for every 100 coin. */
    extpointRate?: number;
  };
  /** RFC 3339. */
  startsAt: string | null;
  /** RFC 3339. */
  endsAt: string | null;
};

/** GET /payment/coin-recharge/{productCode}: what a game's coin top-up offers. */
export type CoinRechargeInfo = {
  code: Open<ProductCode>;
  name: string;
  coinName: string;
  homePageUrl: string;
  zones: Zone[];
  payableValues: PayableValue[];
  /** Only the events active now. */
  rechargeEvents: RechargeEvent[];
};

/** POST /payment/coin-recharge/{productCode}'s answer (201): the coin sent to the server. */
export type CoinRechargeResult = {
  orderId: string;
  transactionId: string;
  /**
   * 'awaiting_delivery' once paid and sent to the game; 'processing' (HTTP 202) while the
   * payment is not confirmed yet, with `message` telling the player not to pay again.
   */
  status?: 'awaiting_delivery' | 'delivered' | 'failed' | 'processing';
  message?: string;
  productCode: string;
  coinName: string;
  zoneId: number;
  zoneDescription: string;
  /** KP spent. */
  credit: number;
  coins: number;
  milestoneBonus: number;
  eventBonus: number;
  lotteryPoints: number;
};
