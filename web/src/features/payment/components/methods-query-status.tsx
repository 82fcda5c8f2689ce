import type { UseQueryResult } from '@tanstack/react-query';

import { LoadFailed } from '@/components/feedback/load-failed';
import { LoadingText } from '@/components/feedback/loading-text';
import { m } from '@/paraglide/messages';
import type { PaymentMethods } from '@/types/api-schema';

/**
 * While the payment methods load, 'Đang tải phương thức thanh toán...'; when they could not be
 * loaded, the server's message and a retry. Nothing once they are there.
 */
export function MethodsQueryStatus({ query }: { query: UseQueryResult<PaymentMethods> }) {
  if (query.isPending) return <LoadingText>{m['payment.loadingMethods']()}</LoadingText>;
  if (!query.isError) return null;
  return (
    <LoadFailed
      title={m['payment.loadFailed']()}
      error={query.error}
      retrying={query.isFetching}
      onRetry={() => void query.refetch()}
    />
  );
}
