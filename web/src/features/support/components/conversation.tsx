import { useTranslation } from 'react-i18next';

import { TicketConversation } from '@/components/data-display/ticket-conversation';
import { formatDateTime } from '@/lib/format';
import type { TicketMessageBody } from '@/types/api-schema';

import { attachmentUrl } from '../utils/attachment';

/**
 * The ticket's messages as the player reads them: theirs on the right, support's on the left,
 * by the role only (a player's answer names no staff member).
 */
export function Conversation({ messages }: { messages: readonly TicketMessageBody[] }) {
  const { t } = useTranslation();
  return (
    <TicketConversation
      messages={messages}
      reader="player"
      label={t('support.ticket.conversation')}
      author={(_, fromPlayer) => (fromPlayer ? t('support.ticket.player') : t('support.ticket.support'))}
      time={formatDateTime}
      image={{ url: attachmentUrl, alt: t('support.attachment.alt'), open: t('support.attachment.open') }}
    />
  );
}
