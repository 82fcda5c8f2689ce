import { lazy, Suspense, useState } from 'react';

import { LoadingText } from '@/components/feedback/loading-text';
import { AuthCard } from '@/components/layouts/auth-card';
import { m } from '@/paraglide/messages';

import { LoginForm, type LoginDefaults } from './login-form';

/** Few players have two-factor on: its step loads only when a sign-in asks for a code. */
const TwoFactorLoginForm = lazy(() =>
  import('./two-factor-login-form').then(({ TwoFactorLoginForm }) => ({ default: TwoFactorLoginForm })),
);

/**
 * Sign-in: the password step, then, for an account with two-factor on, the code step on the
 * same page. Going back from the code step shows the password step again with the username
 * and 'remember me' as they were.
 */
export function LoginScreen() {
  const [step, setStep] = useState<{ code: boolean; defaults?: LoginDefaults }>({ code: false });

  if (step.code) {
    return (
      <AuthCard title={m['auth.twoFactor.title']()} subtitle={m['auth.twoFactor.subtitle']()}>
        <Suspense fallback={<LoadingText>{m['app.loading']()}</LoadingText>}>
          <TwoFactorLoginForm onBack={() => setStep(({ defaults }) => ({ code: false, defaults }))} />
        </Suspense>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={m['auth.login.title']()} subtitle={m['auth.login.subtitle']()}>
      <LoginForm
        defaults={step.defaults}
        onTwoFactorRequired={({ username, remember }) => setStep({ code: true, defaults: { username, remember } })}
      />
    </AuthCard>
  );
}
