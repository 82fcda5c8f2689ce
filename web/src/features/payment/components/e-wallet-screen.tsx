import { m } from '@/paraglide/messages';

import { TransferScreen } from './transfer-screen';

/** /payment/e-wallet: the e-wallets to transfer to, laid out as the banks (spec section 2). */
export function EWalletScreen() {
  return (
    <TransferScreen kind="eWallets" title={m['payment.eWallet.title']()} subtitle={m['payment.eWallet.subtitle']()} />
  );
}
