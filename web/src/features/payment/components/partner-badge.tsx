import { Sparkles } from 'lucide-react';

import { PayPartnerTick } from '@/components/pay-partner-tick';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { m } from '@/paraglide/messages';
import type { User } from '@/types/api-schema';

import { partnerTier } from '../utils/partner';

import { PartnerDialog } from './partner-dialog';

/**
 * A partner's bonus beside the top-up heading, or an invitation to become one; either opens
 * the partner-info dialog.
 */
export function PartnerBadge({ user }: { user: User }) {
  const tier = partnerTier(user);
  return (
    <Dialog.Root placement="center" size="md" scrollBehavior="inside" lazyMount unmountOnExit>
      <Dialog.Trigger asChild>
        <Button
          size="xs"
          variant="surface"
          colorPalette={tier ? 'blue' : 'brand'}
          borderRadius="full"
          data-testid="partner-badge"
        >
          {tier ? <PayPartnerTick aria-hidden size={14} color="inherit" /> : <Sparkles size={14} aria-hidden />}
          {tier ? m['payment.partner.badge']({ percent: tier.bonusPercent }) : m['payment.partner.join']()}
        </Button>
      </Dialog.Trigger>
      <PartnerDialog user={user} />
    </Dialog.Root>
  );
}
