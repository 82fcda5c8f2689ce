import { HStack } from 'styled-system/jsx';

import { Spinner } from '@/components/ui/spinner';
import { Text } from '@/components/ui/text';

/** A small spinner and what is loading, announced politely to screen readers. */
export function LoadingText({ children }: { children: string }) {
  return (
    <HStack role="status" gap="3" color="fg.muted">
      <Spinner size="sm" />
      <Text>{children}</Text>
    </HStack>
  );
}
