import { PAY_PARTNER } from '@/config/constants';
import type { User } from '@/types/api-schema';

export type PartnerTier = (typeof PAY_PARTNER.tiers)[number];

type PartnerFacts = Pick<User, 'isPayPartner' | 'payAmountLast28Days'>;

/**
 * The tier a partner's top-ups are bonused at: the highest one their 28-day sum reaches. A
 * partner whose sum the server has not recalculated yet keeps the lowest tier until it has.
 * Null for a player who is not a partner.
 */
export function partnerTier({ isPayPartner, payAmountLast28Days }: PartnerFacts): PartnerTier | null {
  if (!isPayPartner) return null;
  const [lowest] = PAY_PARTNER.tiers;
  return PAY_PARTNER.tiers.reduce<PartnerTier>(
    (reached, tier) => (payAmountLast28Days >= tier.cashValue ? tier : reached),
    lowest,
  );
}

/** The bonus percent on the player's next top-up; 0 when not a partner. */
export function partnerBonusPercent(user: PartnerFacts): number {
  return partnerTier(user)?.bonusPercent ?? 0;
}
