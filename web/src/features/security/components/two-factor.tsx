import { useQueryClient } from '@tanstack/react-query';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { useId, useState } from 'react';
import { Stack } from 'styled-system/jsx';

import { SuccessBanner } from '@/components/feedback/success-banner';
import { ContentCard } from '@/components/layouts/content-card';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { USER_QUERY_KEY } from '@/lib/auth';
import { m } from '@/paraglide/messages';
import type { User } from '@/types/api-schema';

import { DisableTwoFactorDialog } from './disable-two-factor-dialog';
import { SectionHeader } from './section-header';
import { TwoFactorSetupDialog } from './two-factor-setup-dialog';

/** A modal's state: `key` gives each opening a fresh form; null until first opened. */
type DialogState = { open: boolean; key: number };

/**
 * Two-factor with an authenticator app: whether it is on, and the action that turns it on or
 * off. 'Bật xác thực hai lớp' opens the set-up modal (the current password, for which the
 * server hands out a new secret, then the QR code, secret and code, then the recovery codes
 * once); /me is read again once that modal closes, so the card says 'on' only after the player
 * has left the codes. 'Tắt xác thực hai lớp' opens a modal asking for the password and a code.
 * Each ends with a banner saying what changed.
 */
export function TwoFactor({ user }: { user: Pick<User, 'username' | 'mfaEnabled'> }) {
  const titleId = useId();
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<DialogState | null>(null);
  const [disabling, setDisabling] = useState<DialogState | null>(null);
  const [changed, setChanged] = useState<'enabled' | 'disabled' | null>(null);

  const refreshUser = () => queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });

  const openSetup = () => {
    setChanged(null);
    setSetup((previous) => ({ open: true, key: (previous?.key ?? 0) + 1 }));
  };
  const closeSetup = (enabled: boolean) => {
    setSetup((previous) => previous && { ...previous, open: false });
    if (!enabled) return;
    setChanged('enabled');
    void refreshUser();
  };

  const openDisabling = () => {
    setChanged(null);
    setDisabling((previous) => ({ open: true, key: (previous?.key ?? 0) + 1 }));
  };
  const closeDisabling = () => setDisabling((previous) => previous && { ...previous, open: false });

  return (
    <ContentCard as="section" aria-labelledby={titleId}>
      <SectionHeader
        id={titleId}
        title={m['security.twoFactor.heading']()}
        description={m['security.twoFactor.description']()}
        adornment={
          user.mfaEnabled ? (
            <Badge colorPalette="green" variant="subtle" size="sm">
              {m['security.twoFactor.statusOn']()}
            </Badge>
          ) : (
            <Badge colorPalette="gray" variant="subtle" size="sm">
              {m['security.twoFactor.statusOff']()}
            </Badge>
          )
        }
      />
      {changed === 'enabled' && (
        <SuccessBanner title={m['security.twoFactor.enabled']()}>{m['security.twoFactor.enabledText']()}</SuccessBanner>
      )}
      {changed === 'disabled' && (
        <SuccessBanner title={m['security.twoFactor.disabled']()}>
          {m['security.twoFactor.disabledText']()}
        </SuccessBanner>
      )}
      <Stack gap="4" align={{ base: 'stretch', sm: 'flex-start' }}>
        {user.mfaEnabled ? (
          <Button type="button" variant="outline" colorPalette="red" onClick={openDisabling}>
            <ShieldOff aria-hidden />
            {m['security.twoFactor.disable']()}
          </Button>
        ) : (
          <Button type="button" onClick={openSetup}>
            <ShieldCheck aria-hidden />
            {m['security.twoFactor.enable']()}
          </Button>
        )}
      </Stack>
      {setup && (
        <TwoFactorSetupDialog
          key={setup.key}
          username={user.username}
          open={setup.open}
          onClose={closeSetup}
          onAlreadyEnabled={() => void refreshUser()}
        />
      )}
      {disabling && (
        <DisableTwoFactorDialog
          key={disabling.key}
          username={user.username}
          open={disabling.open}
          onOpenChange={(open) => (open ? openDisabling() : closeDisabling())}
          onDisabled={() => {
            setChanged('disabled');
            closeDisabling();
          }}
        />
      )}
    </ContentCard>
  );
}
