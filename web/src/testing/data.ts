import type { User } from '@/types/api';

export const TEST_PASSWORD = 'Secret#2024';

export function buildUser(overrides: Partial<User> = {}): User {
  return {
    username: 'player01',
    email: 'player01@example.com',
    verifiedAt: '2024-05-01T08:00:00Z',
    firstName: 'An',
    middleName: null,
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
