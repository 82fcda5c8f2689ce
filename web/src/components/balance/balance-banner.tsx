import { Wallet } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { Box, Flex, Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import { formatNumber } from '@/lib/format';
import { m } from '@/paraglide/messages';

import { useOfferTopUp } from './offer-top-up';

/**
 * The signed-in user's KP balance and any debt. With nothing left it offers 'Nạp thẻ', except
 * on the top-up pages themselves (spec section 2, "Top-up area").
 */
export function BalanceBanner() {
  const { data: user } = useUser();
  const offerTopUp = useOfferTopUp(user?.credit);
  if (!user) return null;

  return (
    <Flex
      data-testid="balance-banner"
      align="center"
      gap="4"
      wrap="wrap"
      mb="6"
      px={{ base: '4', md: '6' }}
      py="4"
      bg="brand.subtle"
      borderWidth="1px"
      borderColor="brand.muted"
      borderRadius="xl"
    >
      <Box display="inline-flex" p="2.5" borderRadius="full" bg="brand.muted" color="brand.fg" flexShrink={0}>
        <Wallet size={22} aria-hidden />
      </Box>
      <Stack gap="0.5" flex="1" minW="0">
        <Text fontSize="lg" fontWeight="semibold" fontVariantNumeric="tabular-nums">
          {m['balance.credit']({ credit: formatNumber(user.credit) })}
        </Text>
        {user.debtCredit > 0 && (
          <Text fontSize="sm" color="fg.warning">
            {m['balance.debt']({ debt: formatNumber(user.debtCredit) })}
          </Text>
        )}
      </Stack>
      {offerTopUp && (
        <Button asChild size="sm">
          <RouterLink to={paths.payment}>{m['balance.topUp']()}</RouterLink>
        </Button>
      )}
    </Flex>
  );
}
