import { MailCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import { Result } from '@/components/feedback/result';
import { Text } from '@/components/ui/text';

/**
 * After a forgot-password or forgot-username request: the server's neutral text, the same
 * whether or not an account matched (spec section 8).
 */
export function RequestSent({ message }: { message?: string }) {
  const { t } = useTranslation();
  return (
    <Result icon={MailCheck} tone="green" title={t('recovery.sent.title')}>
      <Text color="fg.muted" role="status">
        {message || t('recovery.sent.text')}
      </Text>
    </Result>
  );
}
