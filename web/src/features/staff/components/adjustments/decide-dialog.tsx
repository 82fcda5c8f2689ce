import { FormDialog } from '@/components/ui/form-dialog';
import { Text } from '@/components/ui/text';
import { toaster } from '@/components/ui/toaster-store';
import { m } from '@/paraglide/messages';

import { useDecideAdjustment, type AdjustmentDecision } from '../../api/decide-adjustment';
import type { Adjustment } from '../../api/get-adjustments';
import { formatSignedAmount } from '../../utils/amount';
import { staffFailureText } from '../../utils/failure';

type DecideDialogProps = {
  adjustment: Adjustment;
  decision: AdjustmentDecision;
  /** The player's username, or their id while it is not known. */
  player: string;
  onClose: () => void;
};

type Values = { kp: string; player: string };

type DecisionTexts = {
  title: () => string;
  text: (values: Values) => string;
  confirm: () => string;
  failed: () => string;
  done: (values: Values) => string;
};

const TEXTS = {
  approve: {
    title: m['staff.adjustments.approveDialog.title'],
    text: m['staff.adjustments.approveDialog.text'],
    confirm: m['staff.adjustments.approveDialog.confirm'],
    failed: m['staff.adjustments.approveDialog.failed'],
    done: m['staff.adjustments.approvedDone'],
  },
  reject: {
    title: m['staff.adjustments.rejectDialog.title'],
    text: m['staff.adjustments.rejectDialog.text'],
    confirm: m['staff.adjustments.rejectDialog.confirm'],
    failed: m['staff.adjustments.rejectDialog.failed'],
    done: m['staff.adjustments.rejectedDone'],
  },
} satisfies Record<AdjustmentDecision, DecisionTexts>;

/**
 * 'Duyệt' or 'Từ chối' a pending adjustment, after saying what it does; the server's refusal
 * (one's own, decided meanwhile) above the buttons. Mount it while open.
 */
export function DecideDialog({ adjustment, decision, player, onClose }: DecideDialogProps) {
  const decide = useDecideAdjustment();
  const texts = TEXTS[decision];
  const kp = formatSignedAmount(adjustment.kp);
  const failure = staffFailureText(decide.error);

  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={texts.title()}
      onSubmit={(event) => {
        event.preventDefault();
        decide.mutate(
          { id: adjustment.id, decision },
          {
            onSuccess: () => {
              toaster.success({ title: texts.done({ kp, player }), closable: true });
              onClose();
            },
          },
        );
      }}
      canSave
      pending={decide.isPending}
      failure={failure ? { title: texts.failed(), text: failure } : null}
      saveLabel={texts.confirm()}
      destructive={decision === 'reject'}
    >
      <Text>{texts.text({ kp, player })}</Text>
    </FormDialog>
  );
}
