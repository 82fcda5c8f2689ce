import { useTranslation } from 'react-i18next';

import { TicketConversation as Messages } from '@/components/data-display/ticket-conversation';
import type { TicketMessageBody } from '@/types/api-schema';

import { staffAttachmentUrl } from '../../api/get-ticket';
import { formatVietnamTime } from '../../utils/time';

/**
 * The ticket's messages as the console reads them: the player's on the left, support's on the
 * right, each reply by the member who wrote it (the role's name if the answer does not say).
 */
export function TicketConversation({ messages, player }: { messages: readonly TicketMessageBody[]; player: string }) {
  const { t } = useTranslation();
  return (
    <Messages
      messages={messages}
      reader="staff"
      label={t('staff.tickets.ticket.conversation')}
      author={(message, fromPlayer) =>
        fromPlayer
          ? t('staff.tickets.ticket.fromPlayer', { username: player })
          : message.staffUsername
            ? t('staff.tickets.ticket.fromStaff', { username: message.staffUsername })
            : t('staff.roles.support')
      }
      time={(at) => formatVietnamTime(at, { seconds: false })}
      image={{ url: staffAttachmentUrl, alt: t('staff.tickets.ticket.image'), open: t('staff.tickets.ticket.openImage') }}
    />
  );
}
