import { useState } from 'react';
import { Stack } from 'styled-system/jsx';

import { SuccessBanner } from '@/components/feedback/success-banner';
import { PageHeader } from '@/components/layouts/page-header';
import { useUser } from '@/lib/auth';
import { m } from '@/paraglide/messages';

import { PersonalData } from './personal-data';
import { PersonalInfo } from './personal-info';
import { VerifyEmailBanner } from './verify-email-banner';

/**
 * /: the player's personal info with its edit modals, the success banner of the last saved
 * change, a request to verify an unverified address, and the player's data: its download and
 * closing the account.
 */
export function ProfileScreen() {
  const { data: user } = useUser();
  const [success, setSuccess] = useState<string | null>(null);
  return (
    <>
      <PageHeader title={m['profile.title']()} />
      {success && <SuccessBanner title={success} onClose={() => setSuccess(null)} />}
      {user && !user.verifiedAt && <VerifyEmailBanner email={user.email} />}
      {user && (
        <Stack gap={{ base: '4', md: '6' }}>
          <PersonalInfo user={user} onEditStart={() => setSuccess(null)} onSaved={setSuccess} />
          <PersonalData user={user} />
        </Stack>
      )}
    </>
  );
}
