import type { ReactNode } from 'react';

import { Alert } from '@/components/ui/alert';
import { CloseButton } from '@/components/ui/button';
import { m } from '@/paraglide/messages';

type SuccessBannerProps = {
  title: string;
  children?: ReactNode;
  /** Shows a close button. */
  onClose?: () => void;
};

/** What a finished change did, announced politely to screen readers. */
export function SuccessBanner({ title, children, onClose }: SuccessBannerProps) {
  return (
    <Alert.Root status="success" borderRadius="lg" role="status" mb="5" overflowWrap="anywhere">
      <Alert.Indicator />
      <Alert.Content minW="0">
        <Alert.Title>{title}</Alert.Title>
        {children && <Alert.Description>{children}</Alert.Description>}
      </Alert.Content>
      {onClose && <CloseButton size="sm" alignSelf="flex-start" aria-label={m['form.close']()} onClick={onClose} />}
    </Alert.Root>
  );
}
