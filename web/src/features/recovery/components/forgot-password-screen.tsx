import { useTranslation } from 'react-i18next';

import { RecoveryCard } from './recovery-card';

export function ForgotPasswordScreen() {
  const { t } = useTranslation();
  return <RecoveryCard title={t('recovery.forgotPassword.title')} />;
}
