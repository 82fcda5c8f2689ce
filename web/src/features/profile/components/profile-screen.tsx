import { Alert, CloseButton } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

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
      {success && (
        <Alert.Root status="success" role="status" borderRadius="xl" mb="6">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{success}</Alert.Title>
          </Alert.Content>
          <CloseButton size="sm" alignSelf="flex-start" aria-label={t('form.close')} onClick={() => setSuccess(null)} />
        </Alert.Root>
      )}
      {user && !user.verifiedAt && <VerifyEmailBanner email={user.email} />}
      {user && <PersonalInfo user={user} onEditStart={() => setSuccess(null)} onSaved={setSuccess} />}
    </>
  );
}
