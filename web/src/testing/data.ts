import type { Transaction, User } from '@/types/api-schema';

export const TEST_PASSWORD = 'Secret#2024';

/** The token of the verification link the fake server last mailed. */
export const EMAIL_VERIFICATION_TOKEN = 'c2f1e0d9-email-verification-token';

/** The token of the password-reset link the fake server last mailed. */
export const PASSWORD_RESET_TOKEN = '7b3e9a41-password-reset-token';

export function buildUser(overrides: Partial<User> = {}): User {
  return {
    username: 'player01',
    email: 'player01@example.com',
    verifiedAt: '2024-05-01T08:00:00Z',
    firstName: 'An',
    middleName: '',
    lastName: 'Nguyễn',
    dob: '2000-01-15',
    language: 'vi-VN',
    phoneNumber: '0901234567',
    createdAt: '2024-04-30T08:00:00Z',
    passwordChangedAt: null,
    mfaEnabled: false,
    credit: 0,
    debtCredit: 0,
    isPayPartner: false,
    payAmountLast28Days: 0,
    ...overrides,
  };
}

let transactionCount = 0;

/** A successful bank-transfer top-up unless told otherwise; each gets its own id. */
export function buildTransaction(overrides: Partial<Transaction> = {}): Transaction {
  transactionCount += 1;
  return {
    id: `0193f1c2-0000-7000-8000-${String(transactionCount).padStart(12, '0')}`,
    type: 'topup.bank-transfer',
    status: 'success',
    realValue: 100000,
    currency: 'VND',
    updatedAt: '2026-11-22T10:00:00Z',
    createdAt: '2026-11-22T09:59:00Z',
    payload: { source: 'vietcombank' },
    relatedTransactions: [],
    ...overrides,
  };
}

/** What the portal seeds for its demo player, newest first (the e2e journey expects the same). */
export function buildTransactionHistory(): Transaction[] {
  return [
    buildTransaction({
      type: 'topup.bank-transfer',
      status: 'success',
      realValue: 500000,
      currency: 'VND',
      updatedAt: '2026-11-22T10:00:00Z',
      payload: { source: 'vietcombank' },
      relatedTransactions: [{ id: 'related-1', type: 'credit.recharge', realValue: 500000 }],
    }),
    buildTransaction({
      type: 'topup.card',
      status: 'success',
      realValue: 100000,
      currency: 'VND',
      updatedAt: '2026-11-21T10:00:00Z',
      payload: { provider: 'viettel', serial: '10000000000001' },
      relatedTransactions: [{ id: 'related-2', type: 'credit.recharge', realValue: 85000 }],
    }),
    buildTransaction({
      type: 'topup.card',
      status: 'pending',
      realValue: 50000,
      currency: 'VND',
      updatedAt: '2026-11-20T10:00:00Z',
      payload: { provider: 'mobifone', serial: '200000000000002' },
      relatedTransactions: [],
    }),
    buildTransaction({
      type: 'topup.card',
      status: 'failed',
      realValue: 20000,
      currency: 'VND',
      updatedAt: '2026-11-19T10:00:00Z',
      payload: { provider: 'vinaphone', serial: '30000000000003', errorCode: 'NOT_FOUND' },
      relatedTransactions: [],
    }),
    buildTransaction({
      type: 'credit.pay',
      status: 'success',
      realValue: 20000,
      currency: 'KP',
      updatedAt: '2026-11-18T10:00:00Z',
      payload: {
        metadata: { coin: 2000, coinBonus: 200, productCode: 'jxsj2', productName: 'Kiếm Thế 2', coinName: 'Vàng' },
      },
      relatedTransactions: [],
    }),
  ];
}
