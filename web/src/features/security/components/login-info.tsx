import { useId } from 'react';
import { Box } from 'styled-system/jsx';

import { InfoRow } from '@/components/data-display/info-row';
import { ContentCard } from '@/components/layouts/content-card';
import { formatDateTime } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { User } from '@/types/api-schema';

import { SectionHeader } from './section-header';

/** The username, which cannot be changed, and when the password was last changed. */
export function LoginInfo({ user }: { user: Pick<User, 'username' | 'passwordChangedAt'> }) {
  const titleId = useId();
  return (
    <ContentCard as="section" aria-labelledby={titleId}>
      <SectionHeader id={titleId} title={m['security.login.heading']()} />
      <Box as="dl">
        <InfoRow label={m['security.login.username']()} value={user.username} />
        {user.passwordChangedAt && (
          <InfoRow label={m['security.login.passwordChangedAt']()} value={formatDateTime(user.passwordChangedAt)} />
        )}
      </Box>
    </ContentCard>
  );
}
