import { HStack } from 'styled-system/jsx';

import { Badge } from '@/components/ui/badge';
import { m } from '@/paraglide/messages';

import type { FoundPlayer } from '../../api/search-players';

/** 'Đã khóa' and 'Đã đóng tài khoản' when they apply; nothing for an ordinary account. */
export function PlayerBadges({ player }: { player: FoundPlayer }) {
  if (!player.lockedAt && !player.closedAt) return null;
  return (
    <HStack gap="2" flexWrap="wrap">
      {player.lockedAt && (
        <Badge colorPalette="red" variant="subtle">
          {m['staff.players.locked']()}
        </Badge>
      )}
      {player.closedAt && (
        <Badge colorPalette="gray" variant="subtle">
          {m['staff.players.closed']()}
        </Badge>
      )}
    </HStack>
  );
}
