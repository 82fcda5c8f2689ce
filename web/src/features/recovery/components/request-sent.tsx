import { MailCheck } from 'lucide-react';

import { Result } from '@/components/feedback/result';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

/**
 * After a forgot-password or forgot-username request: the server's neutral text, the same
 * whether or not an account matched (spec section 8).
 */
export function RequestSent({ message }: { message?: string }) {
  return (
    <Result icon={MailCheck} tone="green" title={m['recovery.sent.title']()}>
      <Text color="fg.muted" role="status">
        {message || m['recovery.sent.text']()}
      </Text>
    </Result>
  );
}
