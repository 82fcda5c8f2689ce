import type { ComponentProps } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { toApiError } from '@/lib/api-client';
import { m } from '@/paraglide/messages';

type LoadFailedProps = Omit<ComponentProps<typeof Alert.Root>, 'title' | 'children'> & {
  title: string;
  error: unknown;
  retrying: boolean;
  onRetry: () => void;
};

/** What did not load: the server's (or the connection's) message and 'Thử lại'. */
export function LoadFailed({ title, error, retrying, onRetry, ...props }: LoadFailedProps) {
  return (
    <Alert.Root status="error" borderRadius="lg" role="alert" {...props}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>{toApiError(error).message}</Alert.Description>
      </Alert.Content>
      <Button variant="outline" size="sm" alignSelf="center" loading={retrying} onClick={onRetry}>
        {m['errors.retry']()}
      </Button>
    </Alert.Root>
  );
}
