import { useTranslation } from 'react-i18next';

import { TransferScreen } from './transfer-screen';

/** /payment/e-wallet: the e-wallets to transfer to, laid out as the banks (spec section 2). */
export function EWalletScreen() {
  const { t } = useTranslation();
  return <TransferScreen kind="eWallets" title={t('payment.eWallet.title')} subtitle={t('payment.eWallet.subtitle')} />;
}
