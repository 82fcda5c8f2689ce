import { Alert } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** What a finished change did, announced politely to screen readers. */
export function SuccessBanner({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Alert.Root status="success" borderRadius="lg" role="status" mb="5">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        {children && <Alert.Description>{children}</Alert.Description>}
      </Alert.Content>
    </Alert.Root>
  );
}
