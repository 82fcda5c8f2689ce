/**
 * The KP a top-up brings (spec section 9, design/money.md). Rates and fees are exact decimals
 * that arrive as JSON numbers; they are turned back into scaled integers so that every result
 * is floored exactly once, as the server floors it, with no binary rounding on the way.
 */

const DIGITS = 8;
const SCALE = 10n ** BigInt(DIGITS);

/** `value` × 10^8 as an integer: 12.5 → 1,250,000,000. */
function scaled(value: number): bigint {
  if (!Number.isFinite(value) || value <= 0) return 0n;
  const [whole = '0', fraction = ''] = value.toFixed(DIGITS).split('.');
  return BigInt(whole + fraction);
}

/** KP for a bank or e-wallet transfer of `vnd`: floor(vnd × exchangeRate). */
export function transferKp(vnd: number, exchangeRate: number): number {
  return Number((BigInt(Math.trunc(vnd)) * scaled(exchangeRate)) / SCALE);
}

/** KP for a card of `value` VND: floor(value × (100 − fee%) / 100 × exchangeRate). */
export function cardKp(value: number, feePercent: number, exchangeRate: number): number {
  const kept = 100n * SCALE - scaled(feePercent);
  if (kept <= 0n) return 0;
  return Number((BigInt(Math.trunc(value)) * kept * scaled(exchangeRate)) / (100n * SCALE * SCALE));
}

/** The partner bonus on `kp`: floor(kp × percent / 100). */
export function partnerBonusKp(kp: number, bonusPercent: number): number {
  return Math.floor((kp * bonusPercent) / 100);
}
