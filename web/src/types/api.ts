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
