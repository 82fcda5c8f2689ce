import { Box, Heading } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

import { ContentCard } from '@/components/layouts/content-card';
import { formatCalendarDate } from '@/lib/format';
import type { User } from '@/types/api';

import { InfoRow, VerifiedBadge } from '@/components/data-display/info-row';

/** The locale key naming each language the portal offers; any other code is shown as sent. */
const LANGUAGE_NAMES: Partial<Record<string, 'profile.languages.vi-VN'>> = { 'vi-VN': 'profile.languages.vi-VN' };

/** The name in Vietnamese order (family, middle, given: "Nguyễn Văn An"), or null when none is set. */
function fullName(user: Pick<User, 'firstName' | 'middleName' | 'lastName'>): string | null {
  const parts = [user.lastName, user.middleName, user.firstName].map((part) => part?.trim()).filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : null;
}

/** The rows of spec section 2, "Personal info"; read-only until the edit modals arrive. */
export function PersonalInfo({ user }: { user: User }) {
  const { t } = useTranslation();
  const languageKey = LANGUAGE_NAMES[user.language];

  return (
    <ContentCard>
      <Heading as="h2" size="md" mb="4">
        {t('profile.details')}
      </Heading>
      <Box as="dl">
        <InfoRow label={t('profile.fields.name')} value={fullName(user)} />
        <InfoRow label={t('profile.fields.dob')} value={user.dob && formatCalendarDate(user.dob)} />
        <InfoRow label={t('profile.fields.language')} value={languageKey ? t(languageKey) : user.language} />
        <InfoRow label={t('profile.fields.phoneNumber')} value={user.phoneNumber} />
        <InfoRow
          label={t('profile.fields.email')}
          value={user.email}
          adornment={<VerifiedBadge verified={!!user.verifiedAt} />}
        />
      </Box>
    </ContentCard>
  );
}
