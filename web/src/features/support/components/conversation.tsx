import { Box, chakra, Flex, Link, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

import { formatDateTime } from '@/lib/format';
import type { TicketMessageBody } from '@/types/api-schema';

import { attachmentUrl } from '../utils/attachment';

/** One message: the player's on the right, support's on the left, with its image when it has one. */
function Message({ message }: { message: TicketMessageBody }) {
  const { t } = useTranslation();
  const fromPlayer = message.staffUsername === '';
  const image = message.attachmentId ? attachmentUrl(message.attachmentId) : null;
  return (
    <Box
      as="li"
      data-author={fromPlayer ? 'player' : 'support'}
      alignSelf={fromPlayer ? 'flex-end' : 'flex-start'}
      maxW={{ base: 'full', md: '85%' }}
      minW="0"
      px="4"
      py="3"
      borderWidth="1px"
      borderRadius="xl"
      borderColor={fromPlayer ? 'brand.muted' : 'border'}
      bg={fromPlayer ? 'brand.subtle' : 'bg.subtle'}
    >
      <Flex align="baseline" gap="2" wrap="wrap" mb="1">
        <Text fontWeight="semibold" fontSize="sm" color={fromPlayer ? 'brand.fg' : 'fg'}>
          {fromPlayer ? t('support.ticket.player') : t('support.ticket.support')}
        </Text>
        {message.createdAt && (
          <Text as="span" fontSize="xs" color="fg.muted">
            <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
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
          title={t('support.attachment.open')}
        >
          {/* Not an image of the image host's (lib/image-url.ts): the API serves it to its player only. */}
          <chakra.img
            src={image}
            alt={t('support.attachment.alt')}
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

/** The ticket's messages, oldest first: the player's and support's replies. */
export function Conversation({ messages }: { messages: readonly TicketMessageBody[] }) {
  const { t } = useTranslation();
  return (
    <Stack as="ol" gap="4" listStyle="none" aria-label={t('support.ticket.conversation')}>
      {messages.map((message) => (
        <Message key={message.id} message={message} />
      ))}
    </Stack>
  );
}
