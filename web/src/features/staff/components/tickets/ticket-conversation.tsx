import { Box, chakra, Flex, Link, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

import type { TicketMessageBody } from '@/types/api-schema';

import { staffAttachmentUrl } from '../../api/get-ticket';
import { formatVietnamTime } from '../../utils/time';

/** One message: the player's on the left, support's on the right (the console's side), with its image. */
function Message({ message, player }: { message: TicketMessageBody; player: string }) {
  const { t } = useTranslation();
  const fromPlayer = message.staffUsername === '';
  const image = message.attachmentId ? staffAttachmentUrl(message.attachmentId) : null;
  return (
    <Box
      as="li"
      data-author={fromPlayer ? 'player' : 'staff'}
      alignSelf={fromPlayer ? 'flex-start' : 'flex-end'}
      maxW={{ base: 'full', md: '85%' }}
      minW="0"
      px="4"
      py="3"
      borderWidth="1px"
      borderRadius="xl"
      borderColor={fromPlayer ? 'border' : 'brand.muted'}
      bg={fromPlayer ? 'bg.subtle' : 'brand.subtle'}
    >
      <Flex align="baseline" gap="2" wrap="wrap" mb="1">
        <Text fontWeight="semibold" fontSize="sm" color={fromPlayer ? 'fg' : 'brand.fg'}>
          {fromPlayer
            ? t('staff.tickets.ticket.fromPlayer', { username: player })
            : t('staff.tickets.ticket.fromStaff', { username: message.staffUsername })}
        </Text>
        {message.createdAt && (
          <Text as="span" fontSize="xs" color="fg.muted">
            <time dateTime={message.createdAt}>{formatVietnamTime(message.createdAt, { seconds: false })}</time>
          </Text>
        )}
      </Flex>
      <Text whiteSpace="pre-wrap" overflowWrap="anywhere">
        {message.body}
      </Text>
      {image && (
        <Link
          href={image}
          target="_blank"
          rel="noopener noreferrer"
          display="inline-block"
          mt="3"
          borderRadius="md"
          title={t('staff.tickets.ticket.openImage')}
        >
          {/* Not an image of the image host's (lib/image-url.ts): the API serves it with the console's session. */}
          <chakra.img
            src={image}
            alt={t('staff.tickets.ticket.image')}
            maxW="full"
            maxH="72"
            objectFit="contain"
            borderRadius="md"
            borderWidth="1px"
            bg="bg.panel"
          />
        </Link>
      )}
    </Box>
  );
}

/** The ticket's messages, oldest first: the player's and support's. */
export function TicketConversation({ messages, player }: { messages: readonly TicketMessageBody[]; player: string }) {
  const { t } = useTranslation();
  return (
    <Stack as="ol" gap="4" listStyle="none" m="0" p="0" aria-label={t('staff.tickets.ticket.conversation')}>
      {messages.map((message) => (
        <Message key={message.id} message={message} player={player} />
      ))}
    </Stack>
  );
}
