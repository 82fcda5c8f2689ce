import { RotateCcw, Send } from 'lucide-react';
import { useState } from 'react';
import { Box, Flex, HStack, Stack, styled } from 'styled-system/jsx';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';
import { toaster } from '@/components/ui/toaster-store';
import { m } from '@/paraglide/messages';

import type { CoinOrder } from '../../api/get-player';
import { useResendOrder } from '../../api/resend-order';
import { formatAmount } from '../../utils/amount';
import { useStaffFailureToast } from '../../utils/failure';
import type { PlayerAbilities } from '../../utils/player-abilities';
import { formatVietnamTime } from '../../utils/time';

import { Fact, Facts, Nothing, PlayerSection } from './player-section';
import { RefundDialog } from './refund-dialog';

const ORDER_STATUSES = ['paying', 'awaiting_delivery', 'delivered', 'failed'] as const;
type OrderStatus = (typeof ORDER_STATUSES)[number];
const PALETTES: Record<OrderStatus, string> = {
  paying: 'blue',
  awaiting_delivery: 'orange',
  delivered: 'green',
  failed: 'red',
};
const STATUS_TEXTS = {
  paying: m['staff.players.orders.status.paying'],
  awaiting_delivery: m['staff.players.orders.status.awaiting_delivery'],
  delivered: m['staff.players.orders.status.delivered'],
  failed: m['staff.players.orders.status.failed'],
} satisfies Record<OrderStatus, () => string>;
const isOrderStatus = (status: string): status is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(status);

function OrderStatusBadge({ status }: { status: string }) {
  return (
    <Badge colorPalette={isOrderStatus(status) ? PALETTES[status] : 'gray'} variant="subtle" data-testid="order-status">
      {isOrderStatus(status) ? STATUS_TEXTS[status]() : status}
    </Badge>
  );
}

const time = (value: string | null | undefined) => formatVietnamTime(value, { seconds: false });

type OrderCardProps = {
  order: CoinOrder;
  abilities: PlayerAbilities;
  resending: boolean;
  onResend: (order: CoinOrder) => void;
  onRefund: (order: CoinOrder) => void;
};

function OrderCard({ order, abilities, resending, onResend, onRefund }: OrderCardProps) {
  const bonus = order.milestoneBonus + order.eventBonus;
  const waiting = order.status === 'awaiting_delivery';
  const canAct = waiting && (abilities.resend || abilities.refund);

  return (
    <styled.li
      p={{ base: '3', md: '4' }}
      borderWidth="1px"
      borderColor="border"
      borderRadius="lg"
      data-order={order.id}
    >
      <Flex justify="space-between" align="flex-start" gap="2" wrap="wrap">
        <Stack gap="0.5" minW="0">
          <Text fontWeight="semibold">
            {m['staff.players.orders.coins']({ coins: formatAmount(order.coins) })}
            {bonus > 0 && (
              <Text as="span" fontWeight="normal" color="fg.muted">
                {' · '}
                {m['staff.players.orders.bonus']({ coins: formatAmount(bonus) })}
              </Text>
            )}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {m['staff.players.orders.product']({ product: order.productCode, zone: order.zoneId })}
            {' · '}
            {m['staff.players.orders.kp']({ kp: formatAmount(order.credit) })}
          </Text>
        </Stack>
        <OrderStatusBadge status={order.status} />
      </Flex>
      <Box mt="3">
        <Facts>
          <Fact label={m['staff.players.orders.account']()}>{order.username}</Fact>
          <Fact label={m['staff.players.orders.createdAt']()}>{time(order.createdAt)}</Fact>
          {waiting && order.deliverBy && (
            <Fact label={m['staff.players.orders.deliverBy']()}>{time(order.deliverBy)}</Fact>
          )}
          {!waiting && <Fact label={m['staff.players.orders.updatedAt']()}>{time(order.updatedAt)}</Fact>}
          {order.failureReason && <Fact label={m['staff.players.orders.failureReason']()}>{order.failureReason}</Fact>}
          {order.transactionId && (
            <Fact label={m['staff.players.orders.transaction']()} mono>
              {order.transactionId}
            </Fact>
          )}
        </Facts>
      </Box>
      {canAct && (
        <HStack
          mt="3"
          gap="2"
          flexWrap="wrap"
          role="group"
          aria-label={m['staff.players.orders.actionsOf']({ id: order.id })}
        >
          {abilities.resend && (
            <Button size="sm" variant="outline" loading={resending} onClick={() => onResend(order)}>
              <Send size={16} aria-hidden />
              {m['staff.players.orders.resend']()}
            </Button>
          )}
          {abilities.refund && (
            <Button size="sm" variant="outline" colorPalette="red" onClick={() => onRefund(order)}>
              <RotateCcw size={16} aria-hidden />
              {m['staff.players.orders.refund']()}
            </Button>
          )}
        </HStack>
      )}
    </styled.li>
  );
}

type OrdersSectionProps = { orders: CoinOrder[]; playerId: string; username: string; abilities: PlayerAbilities };

/**
 * The player's coin orders, newest first, each with its status. One the game has not confirmed
 * ('Chờ game giao xu') can be sent to the game again (support) or refunded (finance).
 */
export function OrdersSection({ orders, playerId, username, abilities }: OrdersSectionProps) {
  const resend = useResendOrder(playerId);
  const failureToast = useStaffFailureToast();
  const [refunding, setRefunding] = useState<CoinOrder | null>(null);

  const onResend = (order: CoinOrder) =>
    resend.mutate(order.id, {
      onSuccess: () => toaster.success({ title: m['staff.players.orders.resent'](), closable: true }),
      onError: (error) => failureToast(m['staff.players.orders.resendFailed'](), error),
    });

  return (
    <PlayerSection title={m['staff.players.orders.title']()}>
      {orders.length === 0 ? (
        <Nothing>{m['staff.players.orders.empty']()}</Nothing>
      ) : (
        <Stack as="ul" aria-label={m['staff.players.orders.listLabel']()} gap="3" listStyleType="none" m="0" p="0">
          {orders.map((order) => (
            <OrderCard
              key={order.id}
              order={order}
              abilities={abilities}
              resending={resend.isPending && resend.variables === order.id}
              onResend={onResend}
              onRefund={setRefunding}
            />
          ))}
        </Stack>
      )}
      {refunding && (
        <RefundDialog order={refunding} playerId={playerId} username={username} onClose={() => setRefunding(null)} />
      )}
    </PlayerSection>
  );
}
