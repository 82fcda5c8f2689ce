import { useTranslation } from 'react-i18next';

import { TransferScreen } from './transfer-screen';

/** /payment/bank-transfer: the banks to transfer to (spec section 2). */
export function BankTransferScreen() {
  const { t } = useTranslation();
  return (
    <TransferScreen
      kind="bankTransfers"
      title={t('payment.bankTransfer.title')}
      subtitle={t('payment.bankTransfer.subtitle')}
    />
  );
}
