import { Button, CloseButton } from '@/components/ui/button';
import { Dialog, Portal } from '@/components/ui/dialog';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';
import type { Passkey } from '@/types/api-schema';

type RemovePasskeyDialogProps = {
  /** The passkey to remove, kept while the dialog closes. */
  passkey: Passkey;
  open: boolean;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (passkey: Passkey) => void;
};

/** 'Xóa passkey?': what removing it means, then 'Hủy' or 'Xóa passkey'. */
export function RemovePasskeyDialog({ passkey, open, pending, onCancel, onConfirm }: RemovePasskeyDialogProps) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => {
        if (!details.open) onCancel();
      }}
      role="alertdialog"
      lazyMount
      unmountOnExit
      placement="center"
      size="sm"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{m['security.passkeys.removeDialog.title']()}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text overflowWrap="anywhere">
                {m['security.passkeys.removeDialog.description']({ name: passkey.name })}
              </Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button type="button" variant="outline" disabled={pending}>
                  {m['form.cancel']()}
                </Button>
              </Dialog.ActionTrigger>
              <Button type="button" colorPalette="red" loading={pending} onClick={() => onConfirm(passkey)}>
                {m['security.passkeys.removeDialog.submit']()}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={m['form.close']()} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
