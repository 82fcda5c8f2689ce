import { ArrowLeft, Download } from 'lucide-react';
import { useMemo } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Flex, Stack } from 'styled-system/jsx';

import { LoadFailed } from '@/components/feedback/load-failed';
import { LoadingText } from '@/components/feedback/loading-text';
import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { Button } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { Separator } from '@/components/ui/separator';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { PHONE_QUERY, useMediaQuery } from '@/hooks/use-media-query';
import { toApiError, type FieldErrors } from '@/lib/api-client';
import { failureText } from '@/lib/failure-text';
import { m } from '@/paraglide/messages';
import type { Transaction } from '@/types/api-schema';

import { transactionsCsvUrl, useTransactions } from '../api/get-transactions';
import {
  FILTER_FIELDS,
  filtersFromSearch,
  filtersToSearch,
  hasFilters,
  type TransactionFilters,
} from '../utils/filters';

import { HistoryFilters } from './history-filters';
import { ReceiptLink } from './receipt-link';
import { TransactionList } from './transaction-list';
import { TransactionTable } from './transaction-table';

type History = ReturnType<typeof useTransactions>;

/**
 * 'Tải CSV': a plain link to the export with the page's filters, which the browser downloads
 * itself, streamed. While the server refuses the filters it is a disabled button instead (the
 * export would refuse them too, and the browser would save the refusal as the file).
 */
function CsvLink({ filters, refused }: { filters: TransactionFilters; refused: boolean }) {
  if (refused) {
    return (
      <Button size="sm" variant="outline" ms={{ sm: 'auto' }} disabled title={m['transactions.all.csvUnavailable']()}>
        <Download size={16} aria-hidden />
        {m['transactions.all.csv']()}
      </Button>
    );
  }
  return (
    <Button asChild size="sm" variant="outline" ms={{ sm: 'auto' }}>
      <a href={transactionsCsvUrl(filters)} download title={m['transactions.all.csvHint']()}>
        <Download size={16} aria-hidden />
        {m['transactions.all.csv']()}
      </a>
    </Button>
  );
}

function Results({ history, filtered }: { history: History; filtered: boolean }) {
  // As on /transactions: a table from `md` up, stacked items on a phone.
  const isPhone = useMediaQuery(PHONE_QUERY);
  const transactions = useMemo<Transaction[]>(
    () => history.data?.pages.flatMap((page) => page.items) ?? [],
    [history.data],
  );

  if (history.isPending) return <LoadingText>{m['transactions.loading']()}</LoadingText>;

  if (history.isError && !history.isFetchNextPageError) {
    const apiError = toApiError(history.error);
    if (apiError.status === 422) {
      // The filters' own messages stand beside them; only what no filter shows is said here.
      const text = failureText(apiError, FILTER_FIELDS);
      return text ? (
        <Text color="fg.error">{text}</Text>
      ) : (
        <Text color="fg.muted">{m['transactions.all.fixFilters']()}</Text>
      );
    }
    return (
      <LoadFailed
        title={m['transactions.loadFailed']()}
        error={history.error}
        retrying={history.isFetching}
        onRetry={() => void history.refetch()}
      />
    );
  }

  if (transactions.length === 0) {
    return <Text color="fg.muted">{filtered ? m['transactions.all.empty']() : m['transactions.empty']()}</Text>;
  }

  const view = {
    transactions,
    label: m['transactions.all.title'](),
    action: {
      label: m['transactions.all.receiptColumn'](),
      render: (transaction: Transaction) => <ReceiptLink id={transaction.id} />,
    },
  };
  return (
    <Stack gap="5">
      {isPhone ? <TransactionList {...view} /> : <TransactionTable {...view} />}
      {history.isFetchNextPageError && (
        <LoadFailed
          title={m['transactions.all.loadMoreFailed']()}
          error={history.error}
          retrying={history.isFetchingNextPage}
          onRetry={() => void history.fetchNextPage()}
        />
      )}
      <Flex align="center" justify="space-between" gap="3" wrap="wrap">
        <Text fontSize="sm" color="fg.muted" role="status">
          {history.hasNextPage
            ? m['transactions.all.shown']({ count: transactions.length })
            : m['transactions.all.allShown']({ count: transactions.length })}
        </Text>
        {history.hasNextPage && (
          <Button
            variant="outline"
            size="sm"
            w={{ base: 'full', sm: 'auto' }}
            loading={history.isFetchingNextPage}
            onClick={() => void history.fetchNextPage()}
          >
            {m['transactions.all.loadMore']()}
          </Button>
        )}
      </Flex>
    </Stack>
  );
}

/** The server's refusal of the filters (a 422 on the first page), if it refused them. */
function filtersRefusal(history: History): FieldErrors | null {
  if (!history.isError || history.isFetchNextPageError) return null;
  const apiError = toApiError(history.error);
  return apiError.status === 422 ? apiError.errors : null;
}

/**
 * /transactions/all: every transaction of the player, newest created first, a page at a time
 * ('Xem thêm' asks for the next by its cursor), filtered by the page's query string, so that a
 * filtered page is a link to share and the back button returns to the filters before. Each
 * row links to its receipt; 'Tải CSV' downloads the same filters' rows.
 */
export function AllTransactionsScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.toString();
  const filters = useMemo(() => filtersFromSearch(new URLSearchParams(search)), [search]);
  const history = useTransactions(filters);
  const refusal = filtersRefusal(history);

  const apply = (next: TransactionFilters) => {
    const nextSearch = filtersToSearch(next);
    if (nextSearch.toString() !== filtersToSearch(filters).toString()) setSearchParams(nextSearch);
  };

  return (
    <>
      <Link asChild fontSize="sm" color="fg.muted" mb="3">
        <RouterLink to={paths.transactions}>
          <ArrowLeft size={16} aria-hidden />
          {m['transactions.all.backToLatest']()}
        </RouterLink>
      </Link>
      <PageHeader title={m['transactions.all.title']()} subtitle={m['transactions.all.subtitle']()} />
      <ContentCard p={{ base: '3', md: '6' }}>
        {/* A new form per URL: the back button brings its filters back into the fields. */}
        <HistoryFilters key={search} filters={filters} serverErrors={refusal ?? {}} onApply={apply}>
          <CsvLink filters={filters} refused={refusal !== null} />
        </HistoryFilters>
        <Separator my={{ base: '4', md: '6' }} />
        <Results history={history} filtered={hasFilters(filters)} />
      </ContentCard>
    </>
  );
}
