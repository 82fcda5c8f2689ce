import { Stack } from 'styled-system/jsx';

import { ContentCard } from '@/components/layouts/content-card';
import { Alert } from '@/components/ui/alert';
import { Text } from '@/components/ui/text';
import { useUser } from '@/lib/auth';
import { m } from '@/paraglide/messages';

import { usePaymentMethods } from '../api/get-payment-methods';
import { partnerBonusPercent } from '../utils/partner';

import { BackLink } from './back-link';
import { MethodHeader } from './method-header';
import { MethodsQueryStatus } from './methods-query-status';
import { TransferMethodCard } from './transfer-method-card';

type TransferScreenProps = {
  kind: 'bankTransfers' | 'eWallets';
  title: string;
  subtitle: string;
};

/**
 * The bank-transfer and e-wallet pages: one card per account, after a note that transfers are
 * credited automatically when they carry the player's exact transfer content.
 */
export function TransferScreen({ kind, title, subtitle }: TransferScreenProps) {
  const { data: user } = useUser();
  const methods = usePaymentMethods();
  const list = methods.data?.[kind];
  const content = list?.[0]?.paymentSyntax ?? '';
  const bonusPercent = user ? partnerBonusPercent(user) : 0;

  return (
    <ContentCard p={{ base: '4', md: '6' }}>
      <BackLink />
      <MethodHeader title={title} subtitle={subtitle} />
      <MethodsQueryStatus query={methods} />
      {list && list.length === 0 && <Text color="fg.muted">{m['payment.transfer.empty']()}</Text>}
      {list && list.length > 0 && (
        <Stack gap="4">
          <Alert.Root status="info" borderRadius="lg">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{m['payment.transfer.noteTitle']()}</Alert.Title>
              <Alert.Description>{m['payment.transfer.note']({ content })}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
          {list.map((method) => (
            <TransferMethodCard key={method.code} method={method} bonusPercent={bonusPercent} />
          ))}
        </Stack>
      )}
    </ContentCard>
  );
}
