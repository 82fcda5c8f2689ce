import { Stack } from 'styled-system/jsx';

import { FormDialog } from '@/components/ui/form-dialog';
import { Text } from '@/components/ui/text';
import { toaster } from '@/components/ui/toaster-store';
import { m } from '@/paraglide/messages';

import type { Transfer } from '../../api/get-transfers';
import { useMatchTransfer, type Matched } from '../../api/match-transfer';
import { formatAmount } from '../../utils/amount';
import { staffFailureText } from '../../utils/failure';

type MatchDialogProps = {
  transfer: Transfer;
  /** The player's username as suggested or typed. */
  player: string;
  onClose: () => void;
};

/** The toast's text for a match's answer: credited, credited before, or only asked for. */
function doneText(answer: Matched, username: string): string {
  const kp = formatAmount(answer.kp);
  if (answer.pending) {
    return answer.already
      ? m['staff.transfers.pendingAlready']({ kp, username })
      : m['staff.transfers.pendingDone']({ kp, username });
  }
  return answer.already ? m['staff.transfers.already']({ username }) : m['staff.transfers.done']({ kp, username });
}

/**
 * 'Xác nhận ghi có': the amount, the transfer's reference and the player, then 'Ghi có' (also
 * how another finance member approves a pending match, for its player). The server's refusal
 * (no such player, matched to someone else meanwhile, not into our accounts, pending for another
 * player) shows above the buttons; once credited, a toast says how much KP went to whom, and
 * past the approval threshold that the credit now waits for another member. Mount it while open.
 */
export function MatchDialog({ transfer, player, onClose }: MatchDialogProps) {
  const match = useMatchTransfer();
  const failure = staffFailureText(match.error);

  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={m['staff.transfers.confirm.title']()}
      onSubmit={(event) => {
        event.preventDefault();
        match.mutate(
          { transferId: transfer.id, player },
          {
            onSuccess: (answer) => {
              const username =
                (answer.pending ? answer.transfer.pendingMatch?.username : answer.transfer.username) || player;
              toaster.success({ title: doneText(answer, username), closable: true });
              onClose();
            },
          },
        );
      }}
      canSave
      pending={match.isPending}
      failure={failure ? { title: m['staff.transfers.confirm.failed'](), text: failure } : null}
      saveLabel={m['staff.transfers.confirm.submit']()}
    >
      <Stack gap="3">
        <Text>
          {m['staff.transfers.confirm.text']({
            amount: formatAmount(transfer.amountVnd),
            reference: transfer.referenceCode,
            player,
          })}
        </Text>
        <Text color="fg.muted" fontSize="sm">
          {m['staff.transfers.confirm.kp']({ kp: formatAmount(transfer.kp) })}
        </Text>
      </Stack>
    </FormDialog>
  );
}
