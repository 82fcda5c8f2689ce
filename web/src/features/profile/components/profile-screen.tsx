import { useTranslation } from 'react-i18next';

import { PageHeader } from '@/components/layouts/page-header';
import { useUser } from '@/lib/auth';

import { PersonalInfo } from './personal-info';
import { VerifyEmailBanner } from './verify-email-banner';

/** /: the player's personal info, and a request to verify an unverified address. */
export function ProfileScreen() {
  const { t } = useTranslation();
  const { data: user } = useUser();
  return (
    <>
      <PageHeader title={t('profile.title')} />
      {user && !user.verifiedAt && <VerifyEmailBanner email={user.email} />}
      {user && <PersonalInfo user={user} />}
    </>
  );
}
