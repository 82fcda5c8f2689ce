import { ChevronRight, CreditCard, Landmark, Wallet, type LucideIcon } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { Box, Flex, Grid, Stack } from 'styled-system/jsx';
import { flex } from 'styled-system/patterns';

import { ContentCard } from '@/components/layouts/content-card';
import { Badge } from '@/components/ui/badge';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { m } from '@/paraglide/messages';

import { usePaymentMethods } from '../api/get-payment-methods';

import { MethodsQueryStatus } from './methods-query-status';

type MethodTileProps = {
  to: string;
  icon: LucideIcon;
  label: string;
  helper: string;
  /** Green for the recommended methods, orange for the one with fees. */
  recommended: boolean;
  options: number;
  description: string;
};

function MethodTile({ to, icon: Icon, label, helper, recommended, options, description }: MethodTileProps) {
  return (
    <RouterLink
      to={to}
      className={flex({
        direction: { base: 'row', sm: 'column' },
        align: { base: 'center', sm: 'stretch' },
        gap: { base: '4', sm: '3' },
        p: { base: '4', md: '5' },
        bg: 'bg.panel',
        borderWidth: '1px',
        borderColor: 'border',
        borderRadius: 'xl',
        shadow: 'xs',
        h: 'full',
        transition: 'border-color 0.15s, background 0.15s',
        _hover: { borderColor: 'brand.solid', bg: 'brand.subtle' },
        focusRing: 'outside',
      })}
    >
      <Box
        display="inline-flex"
        alignSelf={{ sm: 'flex-start' }}
        p="2.5"
        borderRadius="lg"
        bg="brand.muted"
        color="brand.fg"
        flexShrink={0}
      >
        <Icon size={24} aria-hidden />
      </Box>
      <Stack gap="1" flex="1" minW="0">
        <Flex align="center" gap="2" wrap="wrap">
          <Text fontWeight="semibold" fontSize="lg">
            {label}
          </Text>
          <Badge colorPalette={recommended ? 'green' : 'orange'} variant="subtle" size="sm">
            {helper}
          </Badge>
        </Flex>
        <Text fontSize="sm" fontWeight="medium" color="fg.muted">
          {m['payment.methods.options']({ number: options })}
        </Text>
        <Text fontSize="sm" color="fg.muted">
          {description}
        </Text>
      </Stack>
      <Box display={{ base: 'block', sm: 'none' }} color="fg.subtle" flexShrink={0}>
        <ChevronRight size={20} aria-hidden />
      </Box>
    </RouterLink>
  );
}

/** /payment: the three ways to top up, each with how many options it has. */
export function PaymentIndex() {
  const methods = usePaymentMethods();
  return (
    <ContentCard as="section" aria-label={m['payment.methods.label']()}>
      <Text color="fg.muted" mb="5">
        {m['payment.chooseMethod']()}
      </Text>
      <MethodsQueryStatus query={methods} />
      {methods.data && (
        <Grid as="ul" role="list" listStyleType="none" columns={{ base: 1, sm: 3 }} gap={{ base: '3', md: '4' }}>
          <li>
            <MethodTile
              to={paths.paymentBankTransfer}
              icon={Landmark}
              label={m['payment.methods.bankTransfer.label']()}
              helper={m['payment.methods.bankTransfer.helper']()}
              recommended
              options={methods.data.bankTransfers.length}
              description={m['payment.methods.bankTransfer.description']()}
            />
          </li>
          <li>
            <MethodTile
              to={paths.paymentEWallet}
              icon={Wallet}
              label={m['payment.methods.eWallet.label']()}
              helper={m['payment.methods.eWallet.helper']()}
              recommended
              options={methods.data.eWallets.length}
              description={m['payment.methods.eWallet.description']()}
            />
          </li>
          <li>
            <MethodTile
              to={paths.paymentCard}
              icon={CreditCard}
              label={m['payment.methods.card.label']()}
              helper={m['payment.methods.card.helper']()}
              recommended={false}
              options={methods.data.cards.filter((card) => card.enabled).length}
              description={m['payment.methods.card.description']()}
            />
          </li>
        </Grid>
      )}
    </ContentCard>
  );
}
