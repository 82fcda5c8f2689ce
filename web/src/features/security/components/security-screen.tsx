import { Stack } from 'styled-system/jsx';

import { PageHeader } from '@/components/layouts/page-header';
import { useUser } from '@/lib/auth';
import { m } from '@/paraglide/messages';

import { ActiveSessions } from './active-sessions';
import { ChangePasswordForm } from './change-password-form';
import { LoginInfo } from './login-info';
import { Passkeys } from './passkeys';
import { ProtectiveEmail } from './protective-email';
import { SignInHistory } from './sign-in-history';
import { TwoFactor } from './two-factor';

/**
 * /security (spec section 2, "Security and login"): the username, the password change, the
 * protective email, two-factor with an authenticator app, the passkeys, the devices signed in to
 * the account and the history of its sign-ins.
 */
export function SecurityScreen() {
  const { data: user } = useUser();
  return (
    <>
      <PageHeader title={m['security.title']()} subtitle={m['security.subtitle']()} />
      {user && (
        <Stack gap={{ base: '4', md: '6' }}>
          <LoginInfo user={user} />
          <ChangePasswordForm username={user.username} />
          <ProtectiveEmail user={user} />
          <TwoFactor user={user} />
          <Passkeys user={user} />
          <ActiveSessions />
          <SignInHistory />
        </Stack>
      )}
    </>
  );
}
