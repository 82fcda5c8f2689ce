const rateFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/**
 * A rate × 100, as the event banners show it (spec section 9): coinBonusRate 0.1 → "10"
 * (percent), extpointRate 0.5 → "50" (points per 100 coin). Rounded to hundredths so that
 * binary fractions such as 0.07 × 100 do not show as 7.000000000000001.
 */
export function rateTimes100(rate: number): string {
  return rateFormat.format(Math.round(rate * 100 * 100) / 100);
}
