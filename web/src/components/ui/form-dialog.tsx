import type { FormEvent, ReactNode } from 'react';
import { Stack } from 'styled-system/jsx';

import { FailureAlert } from '@/components/feedback/failure-alert';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { m } from '@/paraglide/messages';

import { Button, CloseButton } from './button';
import { Dialog, Portal } from './dialog';

type FormDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** Save is enabled only when the form holds a valid change (spec section 4, "Profile modals"). */
  canSave: boolean;
  pending: boolean;
  /** Why the last save was refused, when no field of the form can say it. */
  failure?: { title: string; text: string } | null;
  saveLabel?: string;
  /** The save cannot be undone (closing the account, say): a red button in an alert dialog. */
  destructive?: boolean;
  children: ReactNode;
};

/**
 * A modal holding one small form: a title, the fields, an error banner when the last save was
 * refused, and 'Hủy' / 'Lưu'. Its content mounts when it opens and unmounts once closed.
 */
export function FormDialog({
  open,
  onOpenChange,
  title,
  onSubmit,
  canSave,
  pending,
  failure,
  saveLabel,
  destructive = false,
  children,
}: FormDialogProps) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => onOpenChange(details.open)}
      role={destructive ? 'alertdialog' : 'dialog'}
      lazyMount
      unmountOnExit
      placement="center"
      size="md"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <form onSubmit={onSubmit} onKeyDown={enterToNextField} noValidate>
              <Dialog.Header>
                <Dialog.Title>{title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="5">
                  {failure && <FailureAlert title={failure.title} text={failure.text} />}
                  {children}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Dialog.ActionTrigger asChild>
                  <Button type="button" variant="outline">
                    {m['form.cancel']()}
                  </Button>
                </Dialog.ActionTrigger>
                <Button
                  type="submit"
                  colorPalette={destructive ? 'red' : undefined}
                  disabled={!canSave}
                  loading={pending}
                >
                  {saveLabel ?? m['form.save']()}
                </Button>
              </Dialog.Footer>
            </form>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={m['form.close']()} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
