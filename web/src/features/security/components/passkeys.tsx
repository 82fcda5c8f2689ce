import { KeyRound, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { Box, Flex, HStack, Stack } from 'styled-system/jsx';

import { ConnectionError } from '@/components/errors/connection-error';
import { PasskeyHostNote } from '@/components/feedback/passkey-host-note';
import { ContentCard } from '@/components/layouts/content-card';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Text } from '@/components/ui/text';
import { toaster } from '@/components/ui/toaster-store';
import { toApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { browserHasPasskeys, passkeyHostUrl } from '@/lib/passkeys';
import { m } from '@/paraglide/messages';
import type { Passkey, User } from '@/types/api-schema';

import { usePasskeys } from '../api/get-passkeys';
import { useRemovePasskey } from '../api/remove-passkey';
import { AddPasskeyDialog } from './add-passkey-dialog';
import { RemovePasskeyDialog } from './remove-passkey-dialog';
import { SectionHeader } from './section-header';

/** A modal's state: `key` gives each opening a fresh form; null until first opened. */
type DialogState = { open: boolean; key: number };

/** Why the last removal failed: said above the list until the next one starts. */
type Notice = { status: 'warning' | 'error'; text: string };

/**
 * One passkey: its name, when it was added and last signed in, and its removal. The facts
 * stack on a phone, and the button goes below them at full width.
 */
function PasskeyItem({ passkey, onRemove }: { passkey: Passkey; onRemove: () => void }) {
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
        <Box display="inline-flex" p="2" borderRadius="lg" bg="bg.muted" color="fg.muted" flexShrink={0}>
          <KeyRound size={20} aria-hidden />
        </Box>
        <Stack gap="0.5" minW="0">
          <Text fontWeight="medium" overflowWrap="anywhere">
            {passkey.name}
          </Text>
          <Flex
            direction={{ base: 'column', md: 'row' }}
            columnGap="4"
            rowGap="0.5"
            wrap="wrap"
            fontSize="sm"
            color="fg.muted"
          >
            <Text>{m['security.passkeys.createdAt']({ time: formatDateTime(passkey.createdAt) })}</Text>
            <Text>
              {passkey.lastUsedAt
                ? m['security.passkeys.lastUsedAt']({ time: formatDateTime(passkey.lastUsedAt) })
                : m['security.passkeys.neverUsed']()}
            </Text>
          </Flex>
        </Stack>
      </HStack>
      <Button
        size="sm"
        variant="outline"
        flexShrink={0}
        w={{ base: 'full', sm: 'auto' }}
        aria-label={m['security.passkeys.removeLabel']({ name: passkey.name })}
        onClick={onRemove}
      >
        {m['security.passkeys.remove']()}
      </Button>
    </Flex>
  );
}

/**
 * The player's passkeys, oldest first as the server lists them, each with its removal (after a
 * confirmation), and 'Thêm passkey', which opens the dialog asking for the password. A browser
 * without WebAuthn lists them but cannot add one; on an IP address, where browsers refuse
 * passkeys, a link to the same page on localhost stands in for the button.
 */
export function Passkeys({ user }: { user: Pick<User, 'username'> }) {
  const titleId = useId();
  const passkeys = usePasskeys();
  const remove = useRemovePasskey();
  const [adding, setAdding] = useState<DialogState | null>(null);
  const [removing, setRemoving] = useState<{ passkey: Passkey; open: boolean } | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const host = passkeyHostUrl();

  const openAdding = () => {
    setNotice(null);
    setAdding((previous) => ({ open: true, key: (previous?.key ?? 0) + 1 }));
  };
  const closeAdding = () => setAdding((previous) => previous && { ...previous, open: false });
  const added = (passkey: Passkey) => {
    closeAdding();
    toaster.success({
      title: m['security.passkeys.added'](),
      description: m['security.passkeys.addedText']({ name: passkey.name }),
      closable: true,
    });
  };

  const closeRemoving = () => setRemoving((previous) => previous && { ...previous, open: false });
  const confirmRemoving = (passkey: Passkey) => {
    setNotice(null);
    remove.mutate(passkey.id, {
      onSuccess: () =>
        toaster.success({ title: m['security.passkeys.removed']({ name: passkey.name }), closable: true }),
      onError: (error) => {
        const apiError = toApiError(error);
        // Gone already (removed elsewhere): the refreshed list no longer shows it.
        setNotice({ status: apiError.status === 404 ? 'warning' : 'error', text: apiError.message });
      },
      onSettled: closeRemoving,
    });
  };

  const list = passkeys.data ?? [];

  return (
    <ContentCard as="section" aria-labelledby={titleId}>
      <SectionHeader
        id={titleId}
        title={m['security.passkeys.heading']()}
        description={m['security.passkeys.description']()}
      />
      {passkeys.isPending && (
        <HStack gap="3" justify="center" py="6" color="fg.muted" role="status">
          <Spinner size="sm" />
          <Text>{m['security.passkeys.loading']()}</Text>
        </HStack>
      )}
      {passkeys.isError && <ConnectionError onRetry={() => void passkeys.refetch()} />}
      {passkeys.isSuccess && (
        <Stack gap="5">
          {notice && (
            <Alert.Root
              // Each status written out, so that Panda emits its colours.
              status={notice.status === 'warning' ? 'warning' : 'error'}
              borderRadius="lg"
              role="alert"
            >
              <Alert.Indicator />
              <Alert.Content>
                {notice.status === 'error' && <Alert.Title>{m['security.passkeys.removeFailed']()}</Alert.Title>}
                <Alert.Description>{notice.text}</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          {list.length === 0 ? (
            <Text color="fg.muted">{m['security.passkeys.empty']()}</Text>
          ) : (
            // `role` keeps the list semantics that Safari drops from a `ul` without bullets.
            <Box as="ul" role="list" listStyleType="none" aria-labelledby={titleId}>
              {list.map((passkey) => (
                <PasskeyItem
                  key={passkey.id}
                  passkey={passkey}
                  onRemove={() => {
                    remove.reset();
                    setRemoving({ passkey, open: true });
                  }}
                />
              ))}
            </Box>
          )}
          <Stack gap="2" align={{ base: 'stretch', sm: 'flex-start' }} borderTopWidth="1px" pt="5">
            {!browserHasPasskeys() ? (
              <Text fontSize="sm" color="fg.muted">
                {m['security.passkeys.unsupported']()}
              </Text>
            ) : host ? (
              <PasskeyHostNote url={host} />
            ) : (
              <Button type="button" onClick={openAdding}>
                <Plus aria-hidden />
                {m['security.passkeys.add']()}
              </Button>
            )}
          </Stack>
        </Stack>
      )}
      {adding && (
        <AddPasskeyDialog
          key={adding.key}
          username={user.username}
          open={adding.open}
          onOpenChange={(open) => (open ? openAdding() : closeAdding())}
          onAdded={added}
        />
      )}
      {removing && (
        <RemovePasskeyDialog
          passkey={removing.passkey}
          open={removing.open}
          pending={remove.isPending}
          onCancel={closeRemoving}
          onConfirm={confirmRemoving}
        />
      )}
    </ContentCard>
  );
}
