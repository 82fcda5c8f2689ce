import { Monitor, Smartphone, Tablet, type LucideIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { Box, Flex, HStack, Stack } from 'styled-system/jsx';

import { ConnectionError } from '@/components/errors/connection-error';
import { ContentCard } from '@/components/layouts/content-card';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Text } from '@/components/ui/text';
import { toApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { Session } from '@/types/api-schema';

import { useSessions } from '../api/get-sessions';
import { useSignOutOtherSessions } from '../api/sign-out-other-sessions';
import { useSignOutSession } from '../api/sign-out-session';
import { describeUserAgent, type DeviceKind } from '../utils/user-agent';
import { SectionHeader } from './section-header';

const KIND_ICON: Record<DeviceKind, LucideIcon> = { desktop: Monitor, mobile: Smartphone, tablet: Tablet };

/** What the last sign-out did: said above the list until the next one starts. */
type Notice = { status: 'success' | 'warning' | 'error'; text: string };

/** "Chrome trên Windows", or whichever half is known, or 'Thiết bị không xác định'. */
function useDeviceName() {
  return (userAgent: string) => {
    const { browser, os } = describeUserAgent(userAgent);
    if (browser && os) return m['security.sessions.device']({ browser, os });
    return browser ?? os ?? m['security.sessions.unknownDevice']();
  };
}

type SessionItemProps = {
  session: Session;
  name: string;
  signingOut: boolean;
  disabled: boolean;
  onSignOut: () => void;
};

function SessionItem({ session, name, signingOut, disabled, onSignOut }: SessionItemProps) {
  const Icon = KIND_ICON[describeUserAgent(session.userAgent).kind];
  const lastSeen = session.lastSeenAt ?? session.createdAt;
  return (
    <Flex
      as="li"
      direction={{ base: 'column', sm: 'row' }}
      align={{ base: 'stretch', sm: 'center' }}
      gap="3"
      py="4"
      borderBottomWidth="1px"
      _first={{ pt: '0' }}
      _last={{ pb: '0', borderBottomWidth: '0' }}
    >
      <HStack alignItems="flex-start" gap="3" flex="1" minW="0">
        {/* This device's icon is green; the colour follows a data attribute, which Panda reads statically. */}
        <Box
          display="inline-flex"
          p="2"
          borderRadius="lg"
          bg="bg.muted"
          color="fg.muted"
          flexShrink={0}
          data-current={session.current ? '' : undefined}
          css={{ '&[data-current]': { color: 'fg.success' } }}
        >
          <Icon size={20} aria-hidden />
        </Box>
        <Stack gap="0.5" minW="0">
          <Flex align="center" gap="2" wrap="wrap">
            <Text fontWeight="medium" title={session.userAgent || undefined}>
              {name}
            </Text>
            {session.current && (
              <Badge colorPalette="green" variant="subtle" size="sm">
                {m['security.sessions.current']()}
              </Badge>
            )}
          </Flex>
          {session.ip && (
            <Text fontSize="sm" color="fg.muted" overflowWrap="anywhere">
              {m['security.sessions.ip']({ ip: session.ip })}
            </Text>
          )}
          <Text fontSize="sm" color="fg.muted">
            {session.current
              ? m['security.sessions.activeNow']()
              : lastSeen && m['security.sessions.lastSeen']({ time: formatDateTime(lastSeen) })}
          </Text>
        </Stack>
      </HStack>
      {!session.current && (
        <Button
          size="sm"
          variant="outline"
          flexShrink={0}
          w={{ base: 'full', sm: 'auto' }}
          loading={signingOut}
          disabled={disabled}
          onClick={onSignOut}
        >
          {m['security.sessions.signOut']()}
        </Button>
      )}
    </Flex>
  );
}

/** This browser's session first, the others as the server orders them (most recently used first). */
const currentFirst = (sessions: Session[]) => [
  ...sessions.filter((session) => session.current),
  ...sessions.filter((session) => !session.current),
];

/**
 * The player's signed-in devices, each but this one with its own sign-out, and a sign-out of
 * every other device at once (disabled when there is none).
 */
export function ActiveSessions() {
  const titleId = useId();
  const deviceName = useDeviceName();
  const sessions = useSessions();
  const signOut = useSignOutSession();
  const signOutOthers = useSignOutOtherSessions();
  const [notice, setNotice] = useState<Notice | null>(null);

  const list = sessions.data ? currentFirst(sessions.data) : [];
  const others = list.filter((session) => !session.current);
  const busy = signOut.isPending || signOutOthers.isPending;

  const failed = (error: unknown) => {
    const apiError = toApiError(error);
    // Gone already (expired, or signed out elsewhere): the refreshed list no longer shows it.
    setNotice({ status: apiError.status === 404 ? 'warning' : 'error', text: apiError.message });
  };

  const onSignOut = (session: Session) => {
    setNotice(null);
    signOut.mutate(session.id, {
      onSuccess: () =>
        setNotice({
          status: 'success',
          text: m['security.sessions.signedOut']({ device: deviceName(session.userAgent) }),
        }),
      onError: failed,
    });
  };

  const onSignOutOthers = () => {
    setNotice(null);
    signOutOthers.mutate(undefined, {
      onSuccess: () => setNotice({ status: 'success', text: m['security.sessions.signedOutOthers']() }),
      onError: failed,
    });
  };

  return (
    <ContentCard as="section" aria-labelledby={titleId}>
      <SectionHeader
        id={titleId}
        title={m['security.sessions.heading']()}
        description={m['security.sessions.description']()}
      />
      {sessions.isPending && (
        <HStack gap="3" justify="center" py="6" color="fg.muted" role="status">
          <Spinner size="sm" />
          <Text>{m['security.sessions.loading']()}</Text>
        </HStack>
      )}
      {sessions.isError && <ConnectionError onRetry={() => void sessions.refetch()} />}
      {sessions.isSuccess && (
        <Stack gap="5">
          {notice && (
            <Alert.Root
              status={
                // Each status written out, so that Panda emits its colours.
                notice.status === 'success' ? 'success' : notice.status === 'warning' ? 'warning' : 'error'
              }
              borderRadius="lg"
              role={notice.status === 'success' ? 'status' : 'alert'}
            >
              <Alert.Indicator />
              <Alert.Content>
                {notice.status === 'error' && <Alert.Title>{m['security.sessions.failed']()}</Alert.Title>}
                <Alert.Description>{notice.text}</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          <Box as="ul" listStyleType="none" aria-labelledby={titleId}>
            {list.map((session) => (
              <SessionItem
                key={session.id}
                session={session}
                name={deviceName(session.userAgent)}
                signingOut={signOut.isPending && signOut.variables === session.id}
                disabled={busy}
                onSignOut={() => onSignOut(session)}
              />
            ))}
          </Box>
          <Stack gap="2" align={{ base: 'stretch', sm: 'flex-start' }} borderTopWidth="1px" pt="5">
            <Button
              variant="outline"
              colorPalette="red"
              disabled={others.length === 0 || signOut.isPending}
              loading={signOutOthers.isPending}
              onClick={onSignOutOthers}
            >
              {m['security.sessions.signOutOthers']()}
            </Button>
            {others.length === 0 && (
              <Text fontSize="sm" color="fg.muted">
                {m['security.sessions.alone']()}
              </Text>
            )}
          </Stack>
        </Stack>
      )}
    </ContentCard>
  );
}
