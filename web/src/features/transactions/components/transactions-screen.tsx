import { Alert, Button, HStack, Spinner, Text, useBreakpointValue } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { toApiError } from '@/lib/api-client';

import { useTransactionHistory } from '../api/get-transaction-history';

import { TransactionList } from './transaction-list';
import { TransactionTable } from './transaction-table';

function HistoryContent() {
  const { t } = useTranslation();
  const history = useTransactionHistory();
  // Below `md` a five-column table would hide its last columns off-screen: phones get a list.
  // Only one of the two is rendered, chosen from the viewport at the first render (no `ssr`
  // pass) and again whenever the width crosses the breakpoint.
  const isPhone = useBreakpointValue({ base: true, md: false }, { ssr: false });

  if (history.isPending) {
    return (
      <HStack gap="3" color="fg.muted">
        <Spinner size="sm" />
        <Text>{t('transactions.loading')}</Text>
      </HStack>
    );
  }

  if (history.isError) {
    return (
      <Alert.Root status="error" borderRadius="lg" role="alert">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{t('transactions.loadFailed')}</Alert.Title>
          <Alert.Description>{toApiError(history.error).message}</Alert.Description>
        </Alert.Content>
        <Button
          variant="outline"
          size="sm"
          alignSelf="center"
          loading={history.isFetching}
          onClick={() => void history.refetch()}
        >
          {t('errors.retry')}
        </Button>
      </Alert.Root>
    );
  }

  if (history.data.length === 0) return <Text color="fg.muted">{t('transactions.empty')}</Text>;

  return isPhone ? (
    <TransactionList transactions={history.data} />
  ) : (
    <TransactionTable transactions={history.data} />
  );
}

/** /transactions: the latest 10 transactions, newest first (spec section 2). */
export function TransactionsScreen() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('transactions.title')} subtitle={t('transactions.subtitle')} />
      <ContentCard p={{ base: '3', md: '6' }}>
        <HistoryContent />
      </ContentCard>
    </>
  );
}
