import { useTranslation } from 'react-i18next';

import { AuthCard } from '@/components/layouts/auth-card';
import { LoginForm } from './login-form';

export function LoginScreen() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
      <LoginForm />
    </AuthCard>
  );
}
