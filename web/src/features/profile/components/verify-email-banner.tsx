import { CircleAlert, MailCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { HStack } from 'styled-system/jsx';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';
import { toApiError } from '@/lib/api-client';
import { m } from '@/paraglide/messages';

import { useSendVerificationEmail } from '../api/send-verification-email';

/**
 * Asks a player whose address is not verified to verify it, and sends the verification mail:
 * 'Gửi yêu cầu xác minh', then 'Gửi lại' once a mail went out (spec section 2, "Personal info").
 */
export function VerifyEmailBanner({ email }: { email: string }) {
  const titleId = useId();
  const send = useSendVerificationEmail();
  const [sentOnce, setSentOnce] = useState(false);
  const error = send.error ? toApiError(send.error) : null;

  return (
    <Alert.Root
      status="warning"
      as="section"
      aria-labelledby={titleId}
      borderRadius="xl"
      mb="6"
      p={{ base: '4', md: '5' }}
    >
      <Alert.Indicator />
      <Alert.Content gap="2">
        <Alert.Title id={titleId}>{m['profile.verifyEmail.title']()}</Alert.Title>
        <Alert.Description>{m['profile.verifyEmail.description']({ email })}</Alert.Description>
        {send.isSuccess && (
          <HStack role="status" alignItems="flex-start" gap="2" color="fg" fontWeight="medium">
            <MailCheck size={18} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
            <Text>{m['profile.verifyEmail.sent']({ email })}</Text>
          </HStack>
        )}
        {error && (
          <HStack role="alert" alignItems="flex-start" gap="2" color="fg.error" fontWeight="medium">
            <CircleAlert size={18} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
            <Text>{error.message}</Text>
          </HStack>
        )}
        <Button
          size="sm"
          alignSelf="flex-start"
          mt="1"
          loading={send.isPending}
          onClick={() => send.mutate(undefined, { onSuccess: () => setSentOnce(true) })}
        >
          {sentOnce ? m['profile.verifyEmail.resend']() : m['profile.verifyEmail.send']()}
        </Button>
      </Alert.Content>
    </Alert.Root>
  );
}
