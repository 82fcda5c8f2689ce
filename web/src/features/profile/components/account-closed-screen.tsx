import { UserX } from 'lucide-react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Stack } from 'styled-system/jsx';

import { Result } from '@/components/feedback/result';
import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { Button } from '@/components/ui/button';
import { Separator } from '@/components/ui/separator';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { m } from '@/paraglide/messages';

/** The day `eraseAfter` (RFC 3339) falls on as "dd/MM/yyyy", or null when it is no time. */
function eraseDay(eraseAfter: string | null): string | null {
  if (!eraseAfter) return null;
  const day = formatDate(eraseAfter);
  return day === eraseAfter ? null : day;
}

/**
 * /account-closed, where closing the account leads (`?eraseAfter=` the server's time): the
 * account is closed, every device signed out, and from which day its personal data is erased;
 * until then support can keep it.
 */
export function AccountClosedScreen() {
  const [searchParams] = useSearchParams();
  const day = eraseDay(searchParams.get('eraseAfter'));

  return (
    <ContentCard maxW="xl" mx="auto">
      <PageHeader title={m['profile.closed.title']()} />
      <Separator mb="6" />
      <Result icon={UserX} tone="orange" title={m['profile.closed.heading']()}>
        <Stack gap="2">
          <Text>{m['profile.closed.signedOut']()}</Text>
          <Text fontWeight="semibold">
            {day ? m['profile.closed.erasedOn']({ date: day }) : m['profile.closed.erasedLater']()}
          </Text>
          <Text color="fg.muted">{m['profile.closed.mail']()}</Text>
          <Text color="fg.muted">{m['profile.closed.support']()}</Text>
        </Stack>
        <Stack direction={{ base: 'column', sm: 'row' }} gap="3" mt="2" w={{ base: 'full', sm: 'auto' }}>
          <Button asChild>
            <RouterLink to={paths.support}>{m['profile.closed.contactSupport']()}</RouterLink>
          </Button>
          <Button asChild variant="outline">
            <RouterLink to={paths.login}>{m['profile.closed.toLogin']()}</RouterLink>
          </Button>
        </Stack>
      </Result>
    </ContentCard>
  );
}
