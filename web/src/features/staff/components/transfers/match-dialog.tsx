import { Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

import { FormDialog } from '@/components/ui/form-dialog';
import { toaster } from '@/components/ui/toaster-store';

import type { Transfer } from '../../api/get-transfers';
import { useMatchTransfer } from '../../api/match-transfer';
import { formatAmount } from '../../utils/amount';
import { staffFailureText } from '../../utils/failure';

type MatchDialogProps = {
  transfer: Transfer;
  /** The player's username as suggested or typed. */
  player: string;
  onClose: () => void;
};

/**
 * 'Xác nhận ghi có': the amount, the transfer's reference and the player, then 'Ghi có'. The
 * server's refusal (no such player, matched to someone else meanwhile) shows above the buttons;
 * once credited, a toast says how much KP went to whom. Mount it while open.
 */
export function MatchDialog({ transfer, player, onClose }: MatchDialogProps) {
  const { t } = useTranslation();
  const match = useMatchTransfer();
  const failure = staffFailureText(match.error);

  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('staff.transfers.confirm.title')}
      onSubmit={(event) => {
        event.preventDefault();
        match.mutate(
          { transferId: transfer.id, player },
          {
            onSuccess: (answer) => {
              const username = answer.transfer.username || player;
              toaster.success({
                title: answer.already
                  ? t('staff.transfers.already', { username })
                  : t('staff.transfers.done', { kp: formatAmount(answer.kp), username }),
                closable: true,
              });
              onClose();
            },
          },
        );
      }}
      canSave
      pending={match.isPending}
      failure={failure ? { title: t('staff.transfers.confirm.failed'), text: failure } : null}
      saveLabel={t('staff.transfers.confirm.submit')}
    >
      <Stack gap="3">
        <Text>
          {t('staff.transfers.confirm.text', {
            amount: formatAmount(transfer.amountVnd),
            reference: transfer.referenceCode,
            player,
          })}
        </Text>
        <Text color="fg.muted" fontSize="sm">
          {t('staff.transfers.confirm.kp', { kp: formatAmount(transfer.kp) })}
        </Text>
      </Stack>
    </FormDialog>
  );
}
