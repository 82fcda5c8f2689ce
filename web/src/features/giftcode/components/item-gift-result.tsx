import { Stack } from 'styled-system/jsx';

import { SuccessBanner } from '@/components/feedback/success-banner';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { Text } from '@/components/ui/text';
import { formatNumber } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { LocalizedString } from '@/paraglide/runtime';
import type { GiftcodeRedeemed } from '@/types/api-schema';

import { useItemDelivery, type GiftcodeRedeemRequest } from '../api/redeem-giftcode';

/** "1 × Rương Tân Thủ, 5 × Bùa May Mắn". */
function itemsText(gift: GiftcodeRedeemed): string {
  return gift.items
    .map((item) => m['giftcode.items.item']({ quantity: formatNumber(item.quantity), name: item.name }))
    .join(', ');
}

/** What the code gives and where it goes: the campaign, the items, the game, the zone, the character. */
function GiftSummary({ gift }: { gift: GiftcodeRedeemed }) {
  const to = gift.destination;
  const lines = [
    m['giftcode.items.campaign']({ campaign: gift.campaign }),
    m['giftcode.items.list']({ items: itemsText(gift) }),
    to && m['giftcode.items.game']({ game: to.productName }),
    to && m['giftcode.items.zone']({ zone: to.zoneDescription }),
    to?.characterName && m['giftcode.items.character']({ name: to.characterName }),
  ].filter((line): line is LocalizedString => !!line);
  return (
    <Stack gap="0.5" mt="1.5">
      {lines.map((line) => (
        <Text key={line}>{line}</Text>
      ))}
    </Stack>
  );
}

type ItemGiftResultProps = {
  /** The redemption as sent: followed with the same Idempotency-Key while the game has the items. */
  request: GiftcodeRedeemRequest;
  /** The server's first answer. */
  answer: GiftcodeRedeemed;
  onDelivered: () => void;
  onClose: () => void;
};

/**
 * A code of in-game items, once redeemed. While the game has not acknowledged the items
 * ('sent'): the server's message and what goes where, the redemption being asked about again
 * (useItemDelivery), and when no answer came, that the player may look in the game later.
 * Delivered: what arrived for which character, where. Failed: the server's message (the code
 * can be used again) as a warning.
 */
export function ItemGiftResult({ request, answer: first, onDelivered, onClose }: ItemGiftResultProps) {
  const { answer, following } = useItemDelivery(request, first, onDelivered);
  const to = answer.destination;

  if (answer.status === 'delivered') {
    const where = { items: itemsText(answer), zone: to?.zoneDescription ?? '', game: to?.productName ?? '' };
    return (
      <SuccessBanner
        title={
          to?.characterName
            ? m['giftcode.items.success']({ ...where, character: to.characterName })
            : m['giftcode.items.successNoName'](where)
        }
        onClose={onClose}
      >
        {m['giftcode.items.campaign']({ campaign: answer.campaign })}
      </SuccessBanner>
    );
  }

  if (answer.status === 'failed') {
    return (
      <Alert.Root status="warning" borderRadius="lg" role="alert" overflowWrap="anywhere">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{m['giftcode.items.failed']()}</Alert.Title>
          <Alert.Description>
            {answer.message}
            <GiftSummary gift={answer} />
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  }

  return (
    <Alert.Root status="info" borderRadius="lg" role="status" overflowWrap="anywhere">
      <Alert.Indicator>{following ? <Spinner size="sm" /> : undefined}</Alert.Indicator>
      <Alert.Content>
        <Alert.Description>
          {answer.message}
          <GiftSummary gift={answer} />
          {!following && (
            <Text mt="1.5" fontWeight="medium">
              {m['giftcode.items.unconfirmed']()}
            </Text>
          )}
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
