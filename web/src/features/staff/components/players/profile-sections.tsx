import { Lock, LockOpen } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Stack } from 'styled-system/jsx';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';

import type { PlayerDetail } from '../../api/get-player';
import { formatAmount } from '../../utils/amount';
import { formatVietnamTime } from '../../utils/time';

import { LockDialog, UnlockDialog } from './lock-dialogs';
import { Fact, Facts, PlayerSection } from './player-section';

const time = (value: string | null | undefined) => formatVietnamTime(value, { seconds: false });

/** The account: who, since when, closed or locked (and why); support locks or unlocks it. */
export function ProfileSection({ player, canLock }: { player: PlayerDetail['player']; canLock: boolean }) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'lock' | 'unlock' | null>(null);
  const none = t('staff.players.none');

  const action = !canLock ? null : player.lockedAt ? (
    <Button size="sm" variant="outline" onClick={() => setDialog('unlock')}>
      <LockOpen size={16} aria-hidden />
      {t('staff.players.unlock.open')}
    </Button>
  ) : (
    <Button size="sm" variant="outline" colorPalette="red" onClick={() => setDialog('lock')}>
      <Lock size={16} aria-hidden />
      {t('staff.players.lock.open')}
    </Button>
  );

  return (
    <PlayerSection title={t('staff.players.profile.title')} actions={action}>
      <Facts>
        <Fact label={t('staff.players.profile.username')}>{player.username}</Fact>
        <Fact label={t('staff.players.profile.email')}>{player.email || none}</Fact>
        <Fact label={t('staff.players.profile.phone')}>{player.phoneNumber || none}</Fact>
        <Fact label={t('staff.players.profile.id')} mono>
          {player.id}
        </Fact>
        <Fact label={t('staff.players.profile.createdAt')}>{time(player.createdAt) || none}</Fact>
        <Fact label={t('staff.players.profile.closedAt')}>{time(player.closedAt) || t('staff.players.profile.notClosed')}</Fact>
        <Fact label={t('staff.players.profile.locked')}>
          {player.lockedAt ? (
            <Stack gap="0.5" data-testid="player-lock">
              <Badge colorPalette="red" variant="subtle" alignSelf="flex-start">
                {t('staff.players.profile.lockedAt', { time: time(player.lockedAt) })}
              </Badge>
              {player.lockedReason && <Text>{t('staff.players.profile.lockedReason', { reason: player.lockedReason })}</Text>}
            </Stack>
          ) : (
            <Text data-testid="player-lock">{t('staff.players.profile.notLocked')}</Text>
          )}
        </Fact>
      </Facts>
      {dialog === 'lock' && <LockDialog player={player} onClose={() => setDialog(null)} />}
      {dialog === 'unlock' && <UnlockDialog player={player} onClose={() => setDialog(null)} />}
    </PlayerSection>
  );
}

/** The wallet: balance and debt in KP, the partner tier, and what was paid in the last 28 days. */
export function WalletSection({ wallet }: { wallet: PlayerDetail['wallet'] }) {
  const { t } = useTranslation();
  const percent = (wallet.partnerBonusBps / 100).toLocaleString('vi-VN', { maximumFractionDigits: 2 });
  return (
    <PlayerSection title={t('staff.players.wallet.title')}>
      <Facts>
        <Fact label={t('staff.players.wallet.credit')}>
          <Text as="span" fontWeight="semibold" fontSize="md" data-testid="player-balance">
            {t('staff.players.wallet.kp', { kp: formatAmount(wallet.credit) })}
          </Text>
        </Fact>
        <Fact label={t('staff.players.wallet.debt')}>{t('staff.players.wallet.kp', { kp: formatAmount(wallet.debtCredit) })}</Fact>
        <Fact label={t('staff.players.wallet.partner')}>
          {wallet.isPayPartner ? t('staff.players.wallet.partnerYes', { percent }) : t('staff.players.wallet.partnerNo')}
        </Fact>
        <Fact label={t('staff.players.wallet.paid28')}>
          {t('staff.players.wallet.vnd', { amount: formatAmount(wallet.payAmountLast28Days) })}
        </Fact>
      </Facts>
    </PlayerSection>
  );
}
