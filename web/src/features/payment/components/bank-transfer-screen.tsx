import { m } from '@/paraglide/messages';

import { TransferScreen } from './transfer-screen';

/** /payment/bank-transfer: the banks to transfer to (spec section 2). */
export function BankTransferScreen() {
  return (
    <TransferScreen
      kind="bankTransfers"
      title={m['payment.bankTransfer.title']()}
      subtitle={m['payment.bankTransfer.subtitle']()}
    />
  );
}
