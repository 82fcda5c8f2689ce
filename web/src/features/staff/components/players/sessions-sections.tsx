import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { css } from 'styled-system/css';
import { Box, Flex, Stack, styled } from 'styled-system/jsx';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormDialog } from '@/components/ui/form-dialog';
import { Text } from '@/components/ui/text';
import { toaster } from '@/components/ui/toaster-store';
import { m } from '@/paraglide/messages';
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
  const revoke = useRevokeSessions(playerId);
  const failure = staffFailureText(revoke.error);
  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={m['staff.players.sessions.revokeDialog.title']({ username })}
      onSubmit={(event) => {
        event.preventDefault();
        revoke.mutate(undefined, {
          onSuccess: () => {
            toaster.success({ title: m['staff.players.sessions.revoked']({ username }), closable: true });
            onClose();
          },
        });
      }}
      canSave
      pending={revoke.isPending}
      failure={failure ? { title: m['staff.players.sessions.revokeDialog.failed'](), text: failure } : null}
      saveLabel={m['staff.players.sessions.revokeDialog.confirm']()}
      destructive
    >
      <Text>{m['staff.players.sessions.revokeDialog.text']()}</Text>
    </FormDialog>
  );
}

type SessionsSectionProps = { sessions: Session[]; playerId: string; username: string; canRevoke: boolean };

/** The devices signed in now; support ends them all at once ('Đăng xuất mọi phiên'). */
export function SessionsSection({ sessions, playerId, username, canRevoke }: SessionsSectionProps) {
  const [revoking, setRevoking] = useState(false);
  const action =
    canRevoke && sessions.length > 0 ? (
      <Button size="sm" variant="outline" colorPalette="red" onClick={() => setRevoking(true)}>
        <LogOut size={16} aria-hidden />
        {m['staff.players.sessions.revoke']()}
      </Button>
    ) : null;

  return (
    <PlayerSection title={m['staff.players.sessions.title']()} actions={action}>
      {sessions.length === 0 ? (
        <Nothing>{m['staff.players.sessions.empty']()}</Nothing>
      ) : (
        <Box borderWidth="1px" borderColor="border" borderRadius="lg" overflow="hidden">
          <Stack as="ul" aria-label={m['staff.players.sessions.listLabel']()} gap="0" listStyleType="none" m="0" p="0">
            {sessions.map((session) => (
              <styled.li key={session.id} className={rowStyle}>
                <Text fontSize="sm" overflowWrap="anywhere">
                  {session.userAgent || m['security.sessions.unknownDevice']()}
                </Text>
                <Flex mt="1" columnGap="4" rowGap="0.5" wrap="wrap" fontSize="xs" color="fg.muted">
                  <Text>{m['staff.players.sessions.ip']({ ip: session.ip })}</Text>
                  {session.createdAt && (
                    <Text>{m['staff.players.sessions.createdAt']({ time: time(session.createdAt) })}</Text>
                  )}
                  {session.lastSeenAt && (
                    <Text>{m['staff.players.sessions.lastSeenAt']({ time: time(session.lastSeenAt) })}</Text>
                  )}
                  {session.remember && <Text>{m['staff.players.sessions.remember']()}</Text>}
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

const METHOD_TEXTS = {
  password: m['security.signIns.methods.password'],
  totp: m['security.signIns.methods.totp'],
  recoveryCode: m['security.signIns.methods.recoveryCode'],
  passkey: m['security.signIns.methods.passkey'],
} satisfies Record<(typeof METHODS)[number], () => string>;

const FAILURE_TEXTS = {
  wrongPassword: m['security.signIns.failures.wrongPassword'],
  wrongCode: m['security.signIns.failures.wrongCode'],
} satisfies Record<(typeof FAILURES)[number], () => string>;

function methodText(method: string) {
  return (METHODS as readonly string[]).includes(method) ? METHOD_TEXTS[method as (typeof METHODS)[number]]() : method;
}

function failureText(failure: string | null | undefined) {
  return failure && (FAILURES as readonly string[]).includes(failure)
    ? FAILURE_TEXTS[failure as (typeof FAILURES)[number]]()
    : m['security.signIns.failures.other']();
}

/** Sign-ins to the account and refused attempts, newest first (the player's own list's texts). */
export function SignInsSection({ signIns }: { signIns: SignIn[] }) {
  return (
    <PlayerSection title={m['staff.players.signIns.title']()}>
      {signIns.length === 0 ? (
        <Nothing>{m['staff.players.signIns.empty']()}</Nothing>
      ) : (
        <Box borderWidth="1px" borderColor="border" borderRadius="lg" overflow="hidden">
          <Stack as="ul" aria-label={m['staff.players.signIns.listLabel']()} gap="0" listStyleType="none" m="0" p="0">
            {signIns.map((signIn) => (
              <styled.li key={signIn.id} className={rowStyle}>
                <Flex justify="space-between" align="flex-start" gap="2" wrap="wrap">
                  <Text fontSize="sm" fontWeight="medium" overflowWrap="anywhere" minW="0">
                    {signIn.device || m['security.signIns.unknownDevice']()}
                  </Text>
                  {signIn.succeeded ? (
                    <Badge colorPalette="green" variant="subtle" size="sm">
                      {m['security.signIns.succeeded']()}
                    </Badge>
                  ) : (
                    <Badge colorPalette="red" variant="subtle" size="sm">
                      {m['staff.players.signIns.refused']({ why: failureText(signIn.failure) })}
                    </Badge>
                  )}
                </Flex>
                <Flex mt="1" columnGap="4" rowGap="0.5" wrap="wrap" fontSize="xs" color="fg.muted">
                  <Text fontVariantNumeric="tabular-nums">{formatVietnamTime(signIn.occurredAt)}</Text>
                  <Text>{m['staff.players.sessions.ip']({ ip: signIn.ip })}</Text>
                  <Text>{m['staff.players.signIns.method']({ method: methodText(signIn.method) })}</Text>
                </Flex>
              </styled.li>
            ))}
          </Stack>
        </Box>
      )}
    </PlayerSection>
  );
}
