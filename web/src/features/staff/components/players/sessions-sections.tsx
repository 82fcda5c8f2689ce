import type { TFunction } from 'i18next';
import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { Box, Flex, Stack, styled } from 'styled-system/jsx';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormDialog } from '@/components/ui/form-dialog';
import { Text } from '@/components/ui/text';
import { toaster } from '@/components/ui/toaster-store';
import type { Session, SignIn } from '@/types/api-schema';

import { useRevokeSessions } from '../../api/revoke-sessions';
import { staffFailureText } from '../../utils/failure';
import { formatVietnamTime } from '../../utils/time';

import { Nothing, PlayerSection } from './player-section';

const time = (value: string | null | undefined) => formatVietnamTime(value, { seconds: false });

const rowStyle = css({
  px: { base: '3', md: '4' },
  py: '3',
  borderBottomWidth: '1px',
  borderColor: 'border',
  _last: { borderBottomWidth: '0' },
});

function RevokeDialog({ playerId, username, onClose }: { playerId: string; username: string; onClose: () => void }) {
  const { t } = useTranslation();
  const revoke = useRevokeSessions(playerId);
  const failure = staffFailureText(revoke.error);
  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('staff.players.sessions.revokeDialog.title', { username })}
      onSubmit={(event) => {
        event.preventDefault();
        revoke.mutate(undefined, {
          onSuccess: () => {
            toaster.success({ title: t('staff.players.sessions.revoked', { username }), closable: true });
            onClose();
          },
        });
      }}
      canSave
      pending={revoke.isPending}
      failure={failure ? { title: t('staff.players.sessions.revokeDialog.failed'), text: failure } : null}
      saveLabel={t('staff.players.sessions.revokeDialog.confirm')}
      destructive
    >
      <Text>{t('staff.players.sessions.revokeDialog.text')}</Text>
    </FormDialog>
  );
}

type SessionsSectionProps = { sessions: Session[]; playerId: string; username: string; canRevoke: boolean };

/** The devices signed in now; support ends them all at once ('Đăng xuất mọi phiên'). */
export function SessionsSection({ sessions, playerId, username, canRevoke }: SessionsSectionProps) {
  const { t } = useTranslation();
  const [revoking, setRevoking] = useState(false);
  const action =
    canRevoke && sessions.length > 0 ? (
      <Button size="sm" variant="outline" colorPalette="red" onClick={() => setRevoking(true)}>
        <LogOut size={16} aria-hidden />
        {t('staff.players.sessions.revoke')}
      </Button>
    ) : null;

  return (
    <PlayerSection title={t('staff.players.sessions.title')} actions={action}>
      {sessions.length === 0 ? (
        <Nothing>{t('staff.players.sessions.empty')}</Nothing>
      ) : (
        <Box borderWidth="1px" borderColor="border" borderRadius="lg" overflow="hidden">
          <Stack as="ul" aria-label={t('staff.players.sessions.listLabel')} gap="0" listStyleType="none" m="0" p="0">
            {sessions.map((session) => (
              <styled.li key={session.id} className={rowStyle}>
                <Text fontSize="sm" overflowWrap="anywhere">
                  {session.userAgent || t('security.sessions.unknownDevice')}
                </Text>
                <Flex mt="1" columnGap="4" rowGap="0.5" wrap="wrap" fontSize="xs" color="fg.muted">
                  <Text>{t('staff.players.sessions.ip', { ip: session.ip })}</Text>
                  {session.createdAt && <Text>{t('staff.players.sessions.createdAt', { time: time(session.createdAt) })}</Text>}
                  {session.lastSeenAt && <Text>{t('staff.players.sessions.lastSeenAt', { time: time(session.lastSeenAt) })}</Text>}
                  {session.remember && <Text>{t('staff.players.sessions.remember')}</Text>}
                </Flex>
              </styled.li>
            ))}
          </Stack>
        </Box>
      )}
      {revoking && <RevokeDialog playerId={playerId} username={username} onClose={() => setRevoking(false)} />}
    </PlayerSection>
  );
}

const METHODS = ['password', 'totp', 'recoveryCode', 'passkey'] as const;
const FAILURES = ['wrongPassword', 'wrongCode'] as const;

function methodText(t: TFunction, method: string) {
  return (METHODS as readonly string[]).includes(method)
    ? t(`security.signIns.methods.${method as (typeof METHODS)[number]}`)
    : method;
}

function failureText(t: TFunction, failure: string | null | undefined) {
  return failure && (FAILURES as readonly string[]).includes(failure)
    ? t(`security.signIns.failures.${failure as (typeof FAILURES)[number]}`)
    : t('security.signIns.failures.other');
}

/** Sign-ins to the account and refused attempts, newest first (the player's own list's texts). */
export function SignInsSection({ signIns }: { signIns: SignIn[] }) {
  const { t } = useTranslation();
  return (
    <PlayerSection title={t('staff.players.signIns.title')}>
      {signIns.length === 0 ? (
        <Nothing>{t('staff.players.signIns.empty')}</Nothing>
      ) : (
        <Box borderWidth="1px" borderColor="border" borderRadius="lg" overflow="hidden">
          <Stack as="ul" aria-label={t('staff.players.signIns.listLabel')} gap="0" listStyleType="none" m="0" p="0">
            {signIns.map((signIn) => (
              <styled.li key={signIn.id} className={rowStyle}>
                <Flex justify="space-between" align="flex-start" gap="2" wrap="wrap">
                  <Text fontSize="sm" fontWeight="medium" overflowWrap="anywhere" minW="0">
                    {signIn.device || t('security.signIns.unknownDevice')}
                  </Text>
                  {signIn.succeeded ? (
                    <Badge colorPalette="green" variant="subtle" size="sm">
                      {t('security.signIns.succeeded')}
                    </Badge>
                  ) : (
                    <Badge colorPalette="red" variant="subtle" size="sm">
                      {t('staff.players.signIns.refused', { why: failureText(t, signIn.failure) })}
                    </Badge>
                  )}
                </Flex>
                <Flex mt="1" columnGap="4" rowGap="0.5" wrap="wrap" fontSize="xs" color="fg.muted">
                  <Text fontVariantNumeric="tabular-nums">{formatVietnamTime(signIn.occurredAt)}</Text>
                  <Text>{t('staff.players.sessions.ip', { ip: signIn.ip })}</Text>
                  <Text>{t('staff.players.signIns.method', { method: methodText(t, signIn.method) })}</Text>
                </Flex>
              </styled.li>
            ))}
          </Stack>
        </Box>
      )}
    </PlayerSection>
  );
}
