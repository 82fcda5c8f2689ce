import { Heading } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

export function EWalletScreen() {
  const { t } = useTranslation();
  return (
    <Heading as="h2" size="lg">
      {t('payment.eWallet.title')}
    </Heading>
  );
}
