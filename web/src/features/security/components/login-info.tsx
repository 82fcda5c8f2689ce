import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Box } from 'styled-system/jsx';

import { InfoRow } from '@/components/data-display/info-row';
import { ContentCard } from '@/components/layouts/content-card';
import { formatDateTime } from '@/lib/format';
import type { User } from '@/types/api-schema';

import { SectionHeader } from './section-header';

/** The username, which cannot be changed, and when the password was last changed. */
export function LoginInfo({ user }: { user: Pick<User, 'username' | 'passwordChangedAt'> }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <ContentCard as="section" aria-labelledby={titleId}>
      <SectionHeader id={titleId} title={t('security.login.heading')} />
      <Box as="dl">
        <InfoRow label={t('security.login.username')} value={user.username} />
        {user.passwordChangedAt && (
          <InfoRow label={t('security.login.passwordChangedAt')} value={formatDateTime(user.passwordChangedAt)} />
        )}
      </Box>
    </ContentCard>
  );
}
