import { Heading } from '@chakra-ui/react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';

export function CoinRechargeScreen() {
  const { t } = useTranslation();
  const { productCode = '' } = useParams();
  return (
    <Heading as="h2" size="lg">
      {t('recharge.product.title', { productCode })}
    </Heading>
  );
}
