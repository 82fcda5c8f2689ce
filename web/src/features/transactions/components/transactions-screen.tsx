import { ArrowRight } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { Flex, HStack } from 'styled-system/jsx';

import { LoadFailed } from '@/components/feedback/load-failed';
import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { PHONE_QUERY, useMediaQuery } from '@/hooks/use-media-query';
import { m } from '@/paraglide/messages';

import { useTransactionHistory } from '../api/get-transaction-history';

import { TransactionList } from './transaction-list';
import { TransactionTable } from './transaction-table';

function HistoryContent() {
  const history = useTransactionHistory();
  // Below `md` a five-column table would hide its last columns off-screen: phones get a list.
  // Only one of the two is rendered, chosen from the viewport at the first render (no `ssr`
  // pass) and again whenever the width crosses the breakpoint.
  const isPhone = useMediaQuery(PHONE_QUERY);

  if (history.isPending) {
    return (
      <HStack gap="3" color="fg.muted">
        <Spinner size="sm" />
        <Text>{m['transactions.loading']()}</Text>
      </HStack>
    );
  }

  if (history.isError) {
    return (
      <LoadFailed
        title={m['transactions.loadFailed']()}
        error={history.error}
        retrying={history.isFetching}
        onRetry={() => void history.refetch()}
      />
    );
  }

  if (history.data.length === 0) return <Text color="fg.muted">{m['transactions.empty']()}</Text>;

  return isPhone ? <TransactionList transactions={history.data} /> : <TransactionTable transactions={history.data} />;
}

/**
 * /transactions: the latest 10 transactions, newest first (spec section 2), and below them the
 * way to the full history.
 */
export function TransactionsScreen() {
  return (
    <>
      <PageHeader title={m['transactions.title']()} subtitle={m['transactions.subtitle']()} />
      <ContentCard p={{ base: '3', md: '6' }}>
        <HistoryContent />
      </ContentCard>
      <Flex justify={{ base: 'stretch', sm: 'flex-end' }} mt="4">
        <Button asChild variant="outline" w={{ base: 'full', sm: 'auto' }}>
          <RouterLink to={paths.transactionsAll}>
            {m['transactions.viewAll']()}
            <ArrowRight size={16} aria-hidden />
          </RouterLink>
        </Button>
      </Flex>
    </>
  );
}
