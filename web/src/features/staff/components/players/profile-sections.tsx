import { Lock, LockOpen } from 'lucide-react';
import { useState } from 'react';
import { Stack } from 'styled-system/jsx';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

import type { PlayerDetail } from '../../api/get-player';
import { formatAmount } from '../../utils/amount';
import { formatVietnamTime } from '../../utils/time';

import { LockDialog, UnlockDialog } from './lock-dialogs';
import { Fact, Facts, PlayerSection } from './player-section';

const time = (value: string | null | undefined) => formatVietnamTime(value, { seconds: false });

/** The account: who, since when, closed or locked (and why); support locks or unlocks it. */
export function ProfileSection({ player, canLock }: { player: PlayerDetail['player']; canLock: boolean }) {
  const [dialog, setDialog] = useState<'lock' | 'unlock' | null>(null);
  const none = m['staff.players.none']();

  const action = !canLock ? null : player.lockedAt ? (
    <Button size="sm" variant="outline" onClick={() => setDialog('unlock')}>
      <LockOpen size={16} aria-hidden />
      {m['staff.players.unlock.open']()}
    </Button>
  ) : (
    <Button size="sm" variant="outline" colorPalette="red" onClick={() => setDialog('lock')}>
      <Lock size={16} aria-hidden />
      {m['staff.players.lock.open']()}
    </Button>
  );

  return (
    <PlayerSection title={m['staff.players.profile.title']()} actions={action}>
      <Facts>
        <Fact label={m['staff.players.profile.username']()}>{player.username}</Fact>
        <Fact label={m['staff.players.profile.email']()}>{player.email || none}</Fact>
        <Fact label={m['staff.players.profile.phone']()}>{player.phoneNumber || none}</Fact>
        <Fact label={m['staff.players.profile.id']()} mono>
          {player.id}
        </Fact>
        <Fact label={m['staff.players.profile.createdAt']()}>{time(player.createdAt) || none}</Fact>
        <Fact label={m['staff.players.profile.closedAt']()}>
          {time(player.closedAt) || m['staff.players.profile.notClosed']()}
        </Fact>
        <Fact label={m['staff.players.profile.locked']()}>
          {player.lockedAt ? (
            <Stack gap="0.5" data-testid="player-lock">
              <Badge colorPalette="red" variant="subtle" alignSelf="flex-start">
                {m['staff.players.profile.lockedAt']({ time: time(player.lockedAt) })}
              </Badge>
              {player.lockedReason && (
                <Text>{m['staff.players.profile.lockedReason']({ reason: player.lockedReason })}</Text>
              )}
            </Stack>
          ) : (
            <Text data-testid="player-lock">{m['staff.players.profile.notLocked']()}</Text>
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
  const percent = (wallet.partnerBonusBps / 100).toLocaleString('vi-VN', { maximumFractionDigits: 2 });
  return (
    <PlayerSection title={m['staff.players.wallet.title']()}>
      <Facts>
        <Fact label={m['staff.players.wallet.credit']()}>
          <Text as="span" fontWeight="semibold" fontSize="md" data-testid="player-balance">
            {m['staff.players.wallet.kp']({ kp: formatAmount(wallet.credit) })}
          </Text>
        </Fact>
        <Fact label={m['staff.players.wallet.debt']()}>
          {m['staff.players.wallet.kp']({ kp: formatAmount(wallet.debtCredit) })}
        </Fact>
        <Fact label={m['staff.players.wallet.partner']()}>
          {wallet.isPayPartner
            ? m['staff.players.wallet.partnerYes']({ percent })
            : m['staff.players.wallet.partnerNo']()}
        </Fact>
        <Fact label={m['staff.players.wallet.paid28']()}>
          {m['staff.players.wallet.vnd']({ amount: formatAmount(wallet.payAmountLast28Days) })}
        </Fact>
      </Facts>
    </PlayerSection>
  );
}
