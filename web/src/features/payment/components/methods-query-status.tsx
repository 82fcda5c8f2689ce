import type { UseQueryResult } from '@tanstack/react-query';

import { LoadingText } from '@/components/feedback/loading-text';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { toApiError } from '@/lib/api-client';
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
    <Alert.Root status="error" borderRadius="lg" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{m['payment.loadFailed']()}</Alert.Title>
        <Alert.Description>{toApiError(query.error).message}</Alert.Description>
      </Alert.Content>
      <Button
        variant="outline"
        size="sm"
        alignSelf="center"
        loading={query.isFetching}
        onClick={() => void query.refetch()}
      >
        {m['errors.retry']()}
      </Button>
    </Alert.Root>
  );
}
