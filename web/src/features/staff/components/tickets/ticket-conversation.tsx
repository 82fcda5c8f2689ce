import { TicketConversation as Messages } from '@/components/data-display/ticket-conversation';
import { m } from '@/paraglide/messages';
import type { TicketMessageBody } from '@/types/api-schema';

import { staffAttachmentUrl } from '../../api/get-ticket';
import { formatVietnamTime } from '../../utils/time';

/**
 * The ticket's messages as the console reads them: the player's on the left, support's on the
 * right, each reply by the member who wrote it (the role's name if the answer does not say).
 */
export function TicketConversation({ messages, player }: { messages: readonly TicketMessageBody[]; player: string }) {
  return (
    <Messages
      messages={messages}
      reader="staff"
      label={m['staff.tickets.ticket.conversation']()}
      author={(message, fromPlayer) =>
        fromPlayer
          ? m['staff.tickets.ticket.fromPlayer']({ username: player })
          : message.staffUsername
            ? m['staff.tickets.ticket.fromStaff']({ username: message.staffUsername })
            : m['staff.roles.support']()
      }
      time={(at) => formatVietnamTime(at, { seconds: false })}
      image={{
        url: staffAttachmentUrl,
        alt: m['staff.tickets.ticket.image'](),
        open: m['staff.tickets.ticket.openImage'](),
      }}
    />
  );
}
