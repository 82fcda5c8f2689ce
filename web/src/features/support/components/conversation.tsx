import { TicketConversation } from '@/components/data-display/ticket-conversation';
import { formatDateTime } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { TicketMessageBody } from '@/types/api-schema';

import { attachmentUrl } from '../utils/attachment';

/**
 * The ticket's messages as the player reads them: theirs on the right, support's on the left,
 * by the role only (a player's answer names no staff member).
 */
export function Conversation({ messages }: { messages: readonly TicketMessageBody[] }) {
  return (
    <TicketConversation
      messages={messages}
      reader="player"
      label={m['support.ticket.conversation']()}
      author={(_, fromPlayer) => (fromPlayer ? m['support.ticket.player']() : m['support.ticket.support']())}
      time={formatDateTime}
      image={{ url: attachmentUrl, alt: m['support.attachment.alt'](), open: m['support.attachment.open']() }}
    />
  );
}
