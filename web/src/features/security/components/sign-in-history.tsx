import { Monitor, Smartphone, Tablet, type LucideIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { Box, Flex, HStack, Stack } from 'styled-system/jsx';

import { ConnectionError } from '@/components/errors/connection-error';
import { ContentCard } from '@/components/layouts/content-card';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Text } from '@/components/ui/text';
import { formatDateTime } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { SignIn } from '@/types/api-schema';

import { useSignIns } from '../api/get-sign-ins';
import { describeUserAgent, type DeviceKind } from '../utils/user-agent';
import { SectionHeader } from './section-header';

const KIND_ICON: Record<DeviceKind, LucideIcon> = { desktop: Monitor, mobile: Smartphone, tablet: Tablet };

/** How many entries show before 'Xem tất cả': the server sends up to 50. */
export const SIGN_INS_SHOWN = 10;

/** The name of each way of proving who one is; one the app does not know yet shows none. */
const METHOD_TEXT = {
  password: m['security.signIns.methods.password'],
  totp: m['security.signIns.methods.totp'],
  recoveryCode: m['security.signIns.methods.recoveryCode'],
  passkey: m['security.signIns.methods.passkey'],
} satisfies Record<SignIn['method'], () => string>;

const FAILURE_TEXT = {
  wrongPassword: m['security.signIns.failures.wrongPassword'],
  wrongCode: m['security.signIns.failures.wrongCode'],
} satisfies Record<NonNullable<SignIn['failure']>, () => string>;

const knownKey = <K extends string, V>(table: Record<K, V>, key: string): V | undefined =>
  Object.hasOwn(table, key) ? table[key as K] : undefined;

/** 'Thành công' in green, or why it was refused in red. */
function Outcome({ signIn }: { signIn: SignIn }) {
  if (signIn.succeeded) {
    return (
      <Badge colorPalette="green" variant="subtle" size="sm">
        {m['security.signIns.succeeded']()}
      </Badge>
    );
  }
  const failure = signIn.failure && knownKey(FAILURE_TEXT, signIn.failure);
  return (
    <Badge colorPalette="red" variant="subtle" size="sm">
      {failure ? failure() : m['security.signIns.failures.other']()}
    </Badge>
  );
}

/**
 * One sign-in: the device and the outcome, then when, from which address and how. The facts
 * stack on a phone and sit on one line on a wider screen.
 */
function SignInItem({ signIn }: { signIn: SignIn }) {
  const Icon = KIND_ICON[describeUserAgent(signIn.userAgent).kind];
  const method = knownKey(METHOD_TEXT, signIn.method);
  return (
    <HStack
      as="li"
      alignItems="flex-start"
      gap="3"
      py="4"
      borderBottomWidth="1px"
      _first={{ pt: '0' }}
      _last={{ pb: '0', borderBottomWidth: '0' }}
    >
      {/* A refused attempt's icon is red; the colours follow a data attribute, which Panda reads statically. */}
      <Box
        display="inline-flex"
        p="2"
        borderRadius="lg"
        bg="bg.muted"
        color="fg.muted"
        flexShrink={0}
        data-refused={signIn.succeeded ? undefined : ''}
        css={{ '&[data-refused]': { bg: 'bg.error', color: 'fg.error' } }}
      >
        <Icon size={20} aria-hidden />
      </Box>
      <Stack gap="0.5" minW="0" flex="1">
        <Flex align="center" gap="2" wrap="wrap">
          <Text fontWeight="medium" title={signIn.userAgent || undefined} overflowWrap="anywhere">
            {signIn.device || m['security.signIns.unknownDevice']()}
          </Text>
          <Outcome signIn={signIn} />
        </Flex>
        <Flex
          direction={{ base: 'column', md: 'row' }}
          columnGap="4"
          rowGap="0.5"
          wrap="wrap"
          fontSize="sm"
          color="fg.muted"
        >
          <Text>
            <time dateTime={signIn.occurredAt}>{formatDateTime(signIn.occurredAt)}</time>
          </Text>
          {signIn.ip && <Text overflowWrap="anywhere">{m['security.signIns.ip']({ ip: signIn.ip })}</Text>}
          {method && <Text>{m['security.signIns.method']({ method: method() })}</Text>}
        </Flex>
      </Stack>
    </HStack>
  );
}

/**
 * The account's recent sign-ins and refused attempts (a wrong password, a wrong code), newest
 * first as the server orders them; the first few, then all of them on request.
 */
export function SignInHistory() {
  const titleId = useId();
  const signIns = useSignIns();
  const [showAll, setShowAll] = useState(false);

  const all = signIns.data ?? [];
  const shown = showAll ? all : all.slice(0, SIGN_INS_SHOWN);

  return (
    <ContentCard as="section" aria-labelledby={titleId}>
      <SectionHeader
        id={titleId}
        title={m['security.signIns.heading']()}
        description={m['security.signIns.description']()}
      />
      {signIns.isPending && (
        <HStack gap="3" justify="center" py="6" color="fg.muted" role="status">
          <Spinner size="sm" />
          <Text>{m['security.signIns.loading']()}</Text>
        </HStack>
      )}
      {signIns.isError && <ConnectionError onRetry={() => void signIns.refetch()} />}
      {signIns.isSuccess && all.length === 0 && <Text color="fg.muted">{m['security.signIns.empty']()}</Text>}
      {signIns.isSuccess && all.length > 0 && (
        <Stack gap="5">
          {/* `role` keeps the list semantics that Safari drops from a `ul` without bullets. */}
          <Box as="ul" role="list" listStyleType="none" aria-labelledby={titleId}>
            {shown.map((signIn) => (
              <SignInItem key={signIn.id} signIn={signIn} />
            ))}
          </Box>
          {shown.length < all.length && (
            <Box borderTopWidth="1px" pt="5">
              <Button variant="outline" w={{ base: 'full', sm: 'auto' }} onClick={() => setShowAll(true)}>
                {m['security.signIns.showAll']({ total: all.length })}
              </Button>
            </Box>
          )}
        </Stack>
      )}
    </ContentCard>
  );
}
