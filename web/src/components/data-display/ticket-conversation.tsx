import { css } from 'styled-system/css';
import { Box, Flex, Stack, styled } from 'styled-system/jsx';

import { Link } from '@/components/ui/link';
import { Text } from '@/components/ui/text';
import type { TicketMessageBody } from '@/types/api-schema';

/** What a support ticket's conversation shows, as the screen reading it words it. */
export type TicketConversationProps = {
  messages: readonly TicketMessageBody[];
  /** Whose messages are the reader's own: they sit on the right, in the brand's colour. */
  reader: 'player' | 'staff';
  /** The list's accessible name. */
  label: string;
  /** Who wrote a message, as the reader calls them. */
  author: (message: TicketMessageBody, fromPlayer: boolean) => string;
  time: (at: string) => string;
  /** An attachment's URL (the API serves it to the ticket's player or to staff), its alt text and link title. */
  image: { url: (id: string) => string; alt: string; open: string };
};

/** A ticket's messages, oldest first: the player's and support's, each with its image. */
export function TicketConversation({ messages, reader, label, author, time, image }: TicketConversationProps) {
  return (
    <Stack as="ol" gap="4" listStyle="none" m="0" p="0" aria-label={label}>
      {messages.map((message) => {
        const fromPlayer = message.author === 'player';
        const own = fromPlayer === (reader === 'player');
        const src = message.attachmentId ? image.url(message.attachmentId) : null;
        return (
          <Box
            key={message.id}
            as="li"
            data-author={fromPlayer ? 'player' : 'support'}
            className={
              own
                ? css({ alignSelf: 'flex-end', borderColor: 'brand.muted', bg: 'brand.subtle' })
                : css({ alignSelf: 'flex-start', borderColor: 'border', bg: 'bg.subtle' })
            }
            maxW={{ base: 'full', md: '85%' }}
            minW="0"
            px="4"
            py="3"
            borderWidth="1px"
            borderRadius="xl"
          >
            <Flex align="baseline" gap="2" wrap="wrap" mb="1">
              <Text fontWeight="semibold" fontSize="sm" color={own ? 'brand.fg' : 'fg'}>
                {author(message, fromPlayer)}
              </Text>
              {message.createdAt && (
                <Text as="span" fontSize="xs" color="fg.muted">
                  <time dateTime={message.createdAt}>{time(message.createdAt)}</time>
                </Text>
              )}
            </Flex>
            <Text whiteSpace="pre-wrap" overflowWrap="anywhere">
              {message.body}
            </Text>
            {src && (
              <Link
                href={src}
                target="_blank"
                rel="noopener noreferrer"
                display="inline-block"
                mt="3"
                borderRadius="md"
                title={image.open}
              >
                {/* Not an image of the image host's (lib/image-url.ts): the API serves it with the session. */}
                <styled.img
                  src={src}
                  alt={image.alt}
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
      })}
    </Stack>
  );
}
