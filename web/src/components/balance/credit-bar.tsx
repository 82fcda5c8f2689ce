import { Wallet } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { HStack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import { formatNumber } from '@/lib/format';
import { m } from '@/paraglide/messages';

import { useOfferTopUp } from './offer-top-up';

/** A one-line KP balance for pages that spend KP (/recharge); 'Nạp thẻ' when it is 0. */
export function CreditBar() {
  const { data: user } = useUser();
  const offerTopUp = useOfferTopUp(user?.credit);
  if (!user) return null;

  return (
    <HStack
      data-testid="credit-bar"
      gap="3"
      mb="6"
      px="4"
      py="2"
      bg="bg.panel"
      borderWidth="1px"
      borderColor="border"
      borderRadius="lg"
      flexWrap="wrap"
    >
      <HStack gap="2" color="brand.fg" flexShrink={0}>
        <Wallet size={18} aria-hidden />
        <Text fontWeight="semibold" color="fg" fontVariantNumeric="tabular-nums">
          {m['balance.credit']({ credit: formatNumber(user.credit) })}
        </Text>
      </HStack>
      {user.debtCredit > 0 && (
        <Text fontSize="sm" color="fg.warning">
          {m['balance.debtShort']({ debt: formatNumber(user.debtCredit) })}
        </Text>
      )}
      {offerTopUp && (
        <Button asChild size="xs" variant="outline" ms="auto">
          <RouterLink to={paths.payment}>{m['balance.topUp']()}</RouterLink>
        </Button>
      )}
    </HStack>
  );
}
