import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Stack } from 'styled-system/jsx';

import { Field } from '@/components/ui/field';
import { FormDialog } from '@/components/ui/form-dialog';
import { Input } from '@/components/ui/input';
import { Text } from '@/components/ui/text';
import { placeServerErrors } from '@/lib/server-errors';

import { reasonInputSchema, type ReasonInput } from '../../api/refund-order';
import { staffFailureText } from '../../utils/failure';

const REASON_FIELDS = ['reason'] as const;

/** The texts of one reason dialog, already translated. */
export type ReasonDialogTexts = {
  title: string;
  /** What the action does. */
  text: string;
  reason: string;
  reasonHelp: string;
  confirm: string;
  failed: string;
};

type ReasonDialogProps = {
  texts: ReasonDialogTexts;
  /** The action's mutation, for its pending state and failure. */
  action: { isPending: boolean; error: unknown };
  /** Sends the action with the reason; calls `onError` with a refusal to place on the field. */
  send: (reason: string, onError: (error: unknown) => void) => void;
  onClose: () => void;
};

/**
 * A destructive action on a player that the server keeps a reason for (locking an account,
 * refunding a coin order): what it does, the reason (required, at most 500 characters), then
 * the action. The server's refusal of the reason shows on its field. Mount it while open.
 */
export function ReasonDialog({ texts, action, send, onClose }: ReasonDialogProps) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ReasonInput>({ resolver: zodResolver(reasonInputSchema), defaultValues: { reason: '' } });
  const onSubmit = handleSubmit(({ reason }) =>
    send(reason, (error) => placeServerErrors(error, REASON_FIELDS, setError)),
  );
  const failure = staffFailureText(action.error, REASON_FIELDS);

  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={texts.title}
      onSubmit={(event) => void onSubmit(event)}
      canSave
      pending={action.isPending}
      failure={failure ? { title: texts.failed, text: failure } : null}
      saveLabel={texts.confirm}
      destructive
    >
      <Stack gap="4">
        <Text>{texts.text}</Text>
        <Field.Root required invalid={!!errors.reason}>
          <Field.Label>
            {texts.reason}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input {...register('reason')} autoComplete="off" />
          {errors.reason ? (
            <Field.ErrorText>{errors.reason.message}</Field.ErrorText>
          ) : (
            <Field.HelperText>{texts.reasonHelp}</Field.HelperText>
          )}
        </Field.Root>
      </Stack>
    </FormDialog>
  );
}
