import { FormDialog } from '@/components/ui/form-dialog';
import { Text } from '@/components/ui/text';
import { toaster } from '@/components/ui/toaster-store';
import { m } from '@/paraglide/messages';

import { useLockPlayer, useUnlockPlayer } from '../../api/lock-player';
import type { FoundPlayer } from '../../api/search-players';
import { staffFailureText } from '../../utils/failure';

import { ReasonDialog } from './reason-dialog';

type DialogProps = { player: FoundPlayer; onClose: () => void };

/** 'Khóa tài khoản': what locking does and the reason, which is required. Mount it while open. */
export function LockDialog({ player, onClose }: DialogProps) {
  const lock = useLockPlayer(player.id);
  return (
    <ReasonDialog
      texts={{
        title: m['staff.players.lock.title']({ username: player.username }),
        text: m['staff.players.lock.text'](),
        reason: m['staff.players.lock.reason'](),
        reasonHelp: m['staff.players.lock.reasonHelp'](),
        confirm: m['staff.players.lock.confirm'](),
        failed: m['staff.players.lock.failed'](),
      }}
      action={lock}
      send={(reason, onError) =>
        lock.mutate(
          { reason },
          {
            onSuccess: (locked) => {
              toaster.success({ title: m['staff.players.lock.done']({ username: locked.username }), closable: true });
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

/** 'Mở khóa tài khoản ...?' and 'Mở khóa'. Mount it while open. */
export function UnlockDialog({ player, onClose }: DialogProps) {
  const unlock = useUnlockPlayer(player.id);
  const failure = staffFailureText(unlock.error);

  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={m['staff.players.unlock.title']({ username: player.username })}
      onSubmit={(event) => {
        event.preventDefault();
        unlock.mutate(undefined, {
          onSuccess: (unlocked) => {
            toaster.success({ title: m['staff.players.unlock.done']({ username: unlocked.username }), closable: true });
            onClose();
          },
        });
      }}
      canSave
      pending={unlock.isPending}
      failure={failure ? { title: m['staff.players.unlock.failed'](), text: failure } : null}
      saveLabel={m['staff.players.unlock.confirm']()}
    >
      <Text>{m['staff.players.unlock.text']()}</Text>
    </FormDialog>
  );
}
