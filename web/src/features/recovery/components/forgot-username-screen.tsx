import { useTranslation } from 'react-i18next';

import { RecoveryCard } from './recovery-card';

export function ForgotUsernameScreen() {
  const { t } = useTranslation();
  return <RecoveryCard title={t('recovery.forgotUsername.title')} />;
}
