import { CircleAlert, CircleCheck, Clock } from 'lucide-react';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Box, Flex, Grid, HStack, Stack, styled } from 'styled-system/jsx';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Text } from '@/components/ui/text';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { m } from '@/paraglide/messages';

import type { PendingMatch, Transfer, TransferSuggestion } from '../../api/get-transfers';
import { formatAmount } from '../../utils/amount';
import { formatVietnamTime } from '../../utils/time';
import { suggestionWhyText, transferReasonText } from '../../utils/transfer-texts';

type TransferCardProps = {
  transfer: Transfer;
  /** Finance, on an unmatched transfer that can be credited: 'Ghi có' buttons and the username field. */
  canMatch: boolean;
  /** The signed-in member's username: a match they asked for waits for someone else. */
  selfUsername: string;
  /** Asks to credit the transfer to this username (the confirmation follows). */
  onMatch: (transfer: Transfer, player: string) => void;
};

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap="0" minW="0">
      <Text as="dt" fontSize="xs" color="fg.muted">
        {label}
      </Text>
      <Box as="dd" m="0" fontSize="sm" overflowWrap="anywhere">
        {children}
      </Box>
    </Stack>
  );
}

type SuggestionProps = Pick<TransferCardProps, 'transfer' | 'canMatch' | 'onMatch'> & {
  suggestion: TransferSuggestion;
};

function Suggestion({ suggestion, transfer, canMatch, onMatch }: SuggestionProps) {
  const username = suggestion.username || suggestion.userId;
  return (
    <Flex
      as="li"
      data-suggestion={username}
      gap="3"
      align={{ base: 'stretch', sm: 'center' }}
      direction={{ base: 'column', sm: 'row' }}
    >
      <Stack gap="0.5" flex="1" minW="0">
        <Text fontWeight="semibold" overflowWrap="anywhere">
          {username}
        </Text>
        <Text fontSize="sm" color="fg.muted">
          {suggestionWhyText(suggestion.why, suggestion.code)}
        </Text>
      </Stack>
      {canMatch && (
        <Button
          size="sm"
          flexShrink={0}
          aria-label={m['staff.transfers.creditTo']({ username })}
          onClick={() => onMatch(transfer, username)}
        >
          {m['staff.transfers.credit']()}
        </Button>
      )}
    </Flex>
  );
}

/** 'Ghi có cho người chơi khác': a username, then the same confirmation as a suggestion's. */
function OtherPlayer({ transfer, onMatch }: Pick<TransferCardProps, 'transfer' | 'onMatch'>) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ player: string }>({ defaultValues: { player: '' } });
  const onSubmit = handleSubmit(({ player }) => onMatch(transfer, player.trim()));

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      <Field.Root invalid={!!errors.player}>
        <Field.Label>{m['staff.transfers.other.label']()}</Field.Label>
        <Flex gap="2" w="full" direction={{ base: 'column', sm: 'row' }}>
          <Input
            size="sm"
            flex={{ base: 'none', sm: '1' }}
            {...register('player', {
              validate: (value) => value.trim() !== '' || m['staff.transfers.other.required'](),
            })}
            placeholder={m['staff.transfers.other.placeholder']()}

            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
          />
          <Button type="submit" size="sm" variant="outline" flexShrink={0}>
            {m['staff.transfers.other.submit']()}
          </Button>
        </Flex>
        <Field.ErrorText>{errors.player?.message}</Field.ErrorText>
      </Field.Root>
    </form>
  );
}

type PendingProps = Pick<TransferCardProps, 'transfer' | 'onMatch'> & {
  pending: PendingMatch;
  /** The signed-in member asked for it: they cannot approve it. */
  own: boolean;
  /** Finance, on a transfer that can be credited: 'Duyệt ghi có' for another member, or the hint for its asker. */
  canApprove: boolean;
};

/**
 * A match waiting for a second finance member: for whom, asked by whom and when; for another
 * finance member, 'Duyệt ghi có cho …' (the same confirmation as a match, for that player); for
 * its asker, that it waits for someone else.
 */
function Pending({ transfer, pending, own, canApprove, onMatch }: PendingProps) {
  const username = pending.username || pending.userId;
  return (
    <Flex mt="3" gap="3" align={{ base: 'stretch', sm: 'center' }} direction={{ base: 'column', sm: 'row' }}>
      <HStack flex="1" minW="0" gap="2" alignItems="flex-start" color="orange.fg" fontSize="sm">
        <Box flexShrink={0} pt="0.5">
          <Clock size={16} aria-hidden />
        </Box>
        <Stack gap="0" minW="0">
          <Text fontWeight="semibold" overflowWrap="anywhere">
            {m['staff.transfers.pendingMatch.text']({ username, askedBy: pending.askedByUsername })}
            {pending.askedAt &&
              ` ${m['staff.transfers.pendingMatch.at']({ time: formatVietnamTime(pending.askedAt) })}`}
          </Text>
          {canApprove && own && <Text color="fg.muted">{m['staff.transfers.pendingMatch.own']()}</Text>}
        </Stack>
      </HStack>
      {canApprove && !own && (
        <Button size="sm" flexShrink={0} onClick={() => onMatch(transfer, username)}>
          {m['staff.transfers.pendingMatch.approve']({ username })}
        </Button>
      )}
    </Flex>
  );
}

/**
 * One transfer: its amount, when it came, the bank or e-wallet and account, its content and
 * reference, what it credits, and why it matched nobody; unmatched, the match waiting for
 * approval if any, the players it may be for and why (and for finance, 'Ghi có' for each or for
 * a username typed); matched, to whom. While a match waits, another finance member can only
 * approve it for its player; its asker keeps the 'Ghi có' buttons (asking for another player
 * replaces their ask).
 */
export function TransferCard({ transfer, canMatch, selfUsername, onMatch }: TransferCardProps) {
  const unmatched = transfer.status === 'unmatched';
  const creditable = transfer.kp > 0;
  const pending = unmatched ? (transfer.pendingMatch ?? null) : null;
  const own = !!pending && !!selfUsername && pending.askedByUsername === selfUsername;
  const canCredit = canMatch && unmatched && creditable;
  const actions = canCredit && (!pending || own);

  return (
    <Box
      as="li"
      data-transfer={transfer.referenceCode}
      p={{ base: '3', md: '4' }}
      borderWidth="1px"
      borderColor="border"
      data-pending={pending ? '' : undefined}
      css={{ '&[data-pending]': { borderColor: 'orange.muted' } }}
      borderRadius="lg"
    >
      <Flex justify="space-between" align="flex-start" gap="2" wrap="wrap">
        <HStack gap="2" flexWrap="wrap">
          <Text fontWeight="bold" fontSize="lg" fontVariantNumeric="tabular-nums">
            {m['staff.transfers.amount']({ amount: formatAmount(transfer.amountVnd) })}
          </Text>
          {transfer.methodCode && (
            <Badge variant="subtle" colorPalette="blue">
              {transfer.methodCode}
            </Badge>
          )}
        </HStack>
        <styled.time
          dateTime={transfer.receivedAt ?? undefined}
          fontSize="sm"
          color="fg.muted"
          fontVariantNumeric="tabular-nums"
        >
          {formatVietnamTime(transfer.receivedAt)}
        </styled.time>
      </Flex>

      <Grid as="dl" columns={{ base: 1, sm: 2, lg: 3 }} columnGap="6" rowGap="2" mt="3" mb="0" mx="0">
        <Fact label={m['staff.transfers.content']()}>
          <Text as="span" fontFamily="mono">
            {transfer.content || m['staff.transfers.noContent']()}
          </Text>
        </Fact>
        <Fact label={m['staff.transfers.reference']()}>
          <Text as="span" fontFamily="mono">
            {transfer.referenceCode}
          </Text>
        </Fact>
        <Fact label={m['staff.transfers.credits']()}>
          {creditable ? m['staff.transfers.kp']({ kp: formatAmount(transfer.kp) }) : '—'}
        </Fact>
        <Fact label={m['staff.transfers.method']()}>{transfer.methodCode || '—'}</Fact>
        <Fact label={m['staff.transfers.account']()}>
          <Text as="span" fontFamily="mono">
            {transfer.accountNumber || '—'}
          </Text>
        </Fact>
        <Fact label={m['staff.transfers.transactionDate']()}>{transfer.transactionDate || '—'}</Fact>
      </Grid>

      {transfer.reason && (
        <HStack mt="3" gap="2" alignItems="flex-start" color="orange.fg" fontSize="sm">
          <Box flexShrink={0} pt="0.5">
            <CircleAlert size={16} aria-hidden />
          </Box>
          <Stack gap="0">
            <Text fontWeight="semibold">{m['staff.transfers.reason']()}</Text>
            <Text>{transferReasonText(transfer.reason)}</Text>
          </Stack>
        </HStack>
      )}

      {pending && <Pending transfer={transfer} pending={pending} own={own} canApprove={canCredit} onMatch={onMatch} />}

      {!unmatched && (
        <HStack mt="3" gap="2" alignItems="flex-start" color="green.fg" fontSize="sm">
          <Box flexShrink={0} pt="0.5">
            <CircleCheck size={16} aria-hidden />
          </Box>
          <Text>
            {m['staff.transfers.matchedTo']({ username: transfer.username || transfer.userId })}
            {transfer.matchedAt &&
              ` ${m['staff.transfers.matchedAt']({ time: formatVietnamTime(transfer.matchedAt) })}`}
          </Text>
        </HStack>
      )}

      {unmatched && !creditable && (
        <Text mt="3" fontSize="sm" color="fg.error">
          {m['staff.transfers.notCreditable']()}
        </Text>
      )}

      {unmatched && (
        <Stack mt="4" gap="3" pt="3" borderTopWidth="1px" borderColor="border">
          <Text fontSize="sm" fontWeight="semibold">
            {m['staff.transfers.suggestions']()}
          </Text>
          {transfer.suggestions.length === 0 ? (
            <Text fontSize="sm" color="fg.muted">
              {m['staff.transfers.noSuggestions']()}
            </Text>
          ) : (
            <Stack as="ul" gap="3" listStyleType="none" m="0" p="0" aria-label={m['staff.transfers.suggestions']()}>
              {transfer.suggestions.map((suggestion) => (
                <Suggestion
                  key={suggestion.userId}
                  suggestion={suggestion}
                  transfer={transfer}
                  canMatch={actions}
                  onMatch={onMatch}
                />
              ))}
            </Stack>
          )}
          {actions && <OtherPlayer transfer={transfer} onMatch={onMatch} />}
        </Stack>
      )}
    </Box>
  );
}
