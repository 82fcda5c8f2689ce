/**
 * A whole number with Vietnamese digit grouping, as the console's other texts and the server's
 * messages write it: 250000 → "250.000", -1500 → "-1.500".
 */
export function formatAmount(value: number): string {
  const digits = String(Math.abs(Math.trunc(value))).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return value < 0 ? `-${digits}` : digits;
}

/** KP with its sign always shown: "+250.000", "-1.500". */
export const formatSignedAmount = (value: number): string => (value > 0 ? `+${formatAmount(value)}` : formatAmount(value));
