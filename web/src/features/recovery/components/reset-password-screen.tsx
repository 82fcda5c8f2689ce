import { useTranslation } from 'react-i18next';

import { RecoveryCard } from './recovery-card';

export function ResetPasswordScreen() {
  const { t } = useTranslation();
  return <RecoveryCard title={t('recovery.resetPassword.title')} />;
}
