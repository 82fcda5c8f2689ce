import { toaster } from '@/components/ui/toaster-store';
import { m } from '@/paraglide/messages';

import type { CoinOrder } from '../../api/get-player';
import { useRefundOrder } from '../../api/refund-order';
import { formatAmount } from '../../utils/amount';

import { ReasonDialog } from './reason-dialog';

type RefundDialogProps = { order: CoinOrder; playerId: string; username: string; onClose: () => void };

/**
 * 'Hoàn KP cho đơn nạp game': what the refund does and its reason (required), then 'Hoàn KP'.
 * The re-authentication a refund needs is the console client's. Mount it while open.
 */
export function RefundDialog({ order, playerId, username, onClose }: RefundDialogProps) {
  const refund = useRefundOrder(playerId);
  return (
    <ReasonDialog
      texts={{
        title: m['staff.players.refund.title'](),
        text: m['staff.players.refund.text']({ coins: formatAmount(order.coins), kp: formatAmount(order.credit) }),
        reason: m['staff.players.refund.reason'](),
        reasonHelp: m['staff.players.refund.reasonHelp'](),
        confirm: m['staff.players.refund.confirm'](),
        failed: m['staff.players.refund.failed'](),
      }}
      action={refund}
      send={(reason, onError) =>
        refund.mutate(
          { reason, orderId: order.id },
          {
            onSuccess: (answer) => {
              toaster.success({
                title: answer.already
                  ? m['staff.players.refund.already']()
                  : m['staff.players.refund.done']({ kp: formatAmount(answer.order.credit), username }),
                closable: true,
              });
              onClose();
            },
            onError,
          },
        )
      }
      onClose={onClose}
    />
  );
}
