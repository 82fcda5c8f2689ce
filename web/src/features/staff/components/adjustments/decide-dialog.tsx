import { useTranslation } from 'react-i18next';

import { FormDialog } from '@/components/ui/form-dialog';
import { Text } from '@/components/ui/text';
import { toaster } from '@/components/ui/toaster-store';

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

const TEXTS = {
  approve: { dialog: 'approveDialog', done: 'approvedDone' },
  reject: { dialog: 'rejectDialog', done: 'rejectedDone' },
} as const;

/**
 * 'Duyệt' or 'Từ chối' a pending adjustment, after saying what it does; the server's refusal
 * (one's own, decided meanwhile) above the buttons. Mount it while open.
 */
export function DecideDialog({ adjustment, decision, player, onClose }: DecideDialogProps) {
  const { t } = useTranslation();
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
      title={t(`staff.adjustments.${texts.dialog}.title`)}
      onSubmit={(event) => {
        event.preventDefault();
        decide.mutate(
          { id: adjustment.id, decision },
          {
            onSuccess: () => {
              toaster.success({ title: t(`staff.adjustments.${texts.done}`, { kp, player }), closable: true });
              onClose();
            },
          },
        );
      }}
      canSave
      pending={decide.isPending}
      failure={failure ? { title: t(`staff.adjustments.${texts.dialog}.failed`), text: failure } : null}
      saveLabel={t(`staff.adjustments.${texts.dialog}.confirm`)}
      destructive={decision === 'reject'}
    >
      <Text>{t(`staff.adjustments.${texts.dialog}.text`, { kp, player })}</Text>
    </FormDialog>
  );
}
