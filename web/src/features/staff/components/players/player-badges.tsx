import { useTranslation } from 'react-i18next';
import { HStack } from 'styled-system/jsx';

import { Badge } from '@/components/ui/badge';

import type { FoundPlayer } from '../../api/search-players';

/** 'Đã khóa' and 'Đã đóng tài khoản' when they apply; nothing for an ordinary account. */
export function PlayerBadges({ player }: { player: FoundPlayer }) {
  const { t } = useTranslation();
  if (!player.lockedAt && !player.closedAt) return null;
  return (
    <HStack gap="2" flexWrap="wrap">
      {player.lockedAt && (
        <Badge colorPalette="red" variant="subtle">
          {t('staff.players.locked')}
        </Badge>
      )}
      {player.closedAt && (
        <Badge colorPalette="gray" variant="subtle">
          {t('staff.players.closed')}
        </Badge>
      )}
    </HStack>
  );
}
