import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { SuccessBanner } from '@/components/feedback/success-banner';
import { PageHeader } from '@/components/layouts/page-header';
import { useUser } from '@/lib/auth';

import { PersonalInfo } from './personal-info';
import { VerifyEmailBanner } from './verify-email-banner';

/**
 * /: the player's personal info with its edit modals, the success banner of the last saved
 * change, and a request to verify an unverified address.
 */
export function ProfileScreen() {
  const { t } = useTranslation();
  const { data: user } = useUser();
  const [success, setSuccess] = useState<string | null>(null);
  return (
    <>
      <PageHeader title={t('profile.title')} />
      {success && <SuccessBanner title={success} onClose={() => setSuccess(null)} />}
      {user && !user.verifiedAt && <VerifyEmailBanner email={user.email} />}
      {user && <PersonalInfo user={user} onEditStart={() => setSuccess(null)} onSaved={setSuccess} />}
    </>
  );
}
