import { Gift, Ticket } from 'lucide-react';
import { css } from 'styled-system/css';
import { Box, Flex, Stack } from 'styled-system/jsx';

import { Text } from '@/components/ui/text';
import { formatDateTime } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { RechargeEvent } from '@/types/api-schema';

import { rateTimes100 } from '../utils/events';

/** A banner's colours: purple for lottery points, the brand's for extra coin. */
const PALETTE = { lottery: css({ colorPalette: 'purple' }), coin: css({ colorPalette: 'brand' }) };

function EventBanner({ event, coinName }: { event: RechargeEvent; coinName: string }) {
  const { coinBonusRate, extpointRate } = event.config;
  const lottery = event.type === 'recharge.bonus_lottery_point';
  let offer: string | null = null;
  if (event.type === 'recharge.bonus_coin' && coinBonusRate !== undefined) {
    offer = m['recharge.events.bonusCoin']({ percent: rateTimes100(coinBonusRate), coinName });
  } else if (lottery && extpointRate !== undefined) {
    offer = m['recharge.events.bonusLotteryPoint']({ points: rateTimes100(extpointRate), coinName });
  }
  let period: string | null = null;
  if (event.startsAt && event.endsAt) {
    period = m['recharge.events.period']({
      startsAt: formatDateTime(event.startsAt),
      endsAt: formatDateTime(event.endsAt),
    });
  } else if (event.endsAt) {
    period = m['recharge.events.until']({ endsAt: formatDateTime(event.endsAt) });
  }
  const Icon = lottery ? Ticket : Gift;

  return (
    <Flex
      as="li"
      gap="3"
      align="flex-start"
      px="4"
      py="3"
      borderRadius="lg"
      borderWidth="1px"
      className={lottery ? PALETTE.lottery : PALETTE.coin}
      bg="colorPalette.subtle"
      borderColor="colorPalette.muted"
    >
      <Box color="colorPalette.fg" flexShrink={0} mt="0.5">
        <Icon size={20} aria-hidden />
      </Box>
      <Stack gap="0.5" minW="0">
        <Text fontWeight="semibold" color="colorPalette.fg">
          {event.name}
        </Text>
        {offer && <Text fontSize="sm">{offer}</Text>}
        {period && (
          <Text fontSize="xs" color="fg.muted">
            {period}
          </Text>
        )}
      </Stack>
    </Flex>
  );
}

/** The game's events active now (spec sections 2 and 9): extra coin, or lottery points. */
export function EventBanners({ events, coinName }: { events: readonly RechargeEvent[]; coinName: string }) {
  if (events.length === 0) return null;
  return (
    <Stack as="ul" role="list" aria-label={m['recharge.events.label']()} listStyleType="none" gap="2" mb="6">
      {events.map((event, index) => (
        <EventBanner key={`${event.type}-${event.name}-${index}`} event={event} coinName={coinName} />
      ))}
    </Stack>
  );
}
