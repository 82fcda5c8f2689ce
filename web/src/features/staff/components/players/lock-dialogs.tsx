import { Field, Input, Stack, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

import { FormDialog } from '@/components/ui/form-dialog';
import { toaster } from '@/components/ui/toaster-store';
import { placeServerErrors } from '@/lib/server-errors';

import { lockInputSchema, useLockPlayer, useUnlockPlayer, type LockInput } from '../../api/lock-player';
import type { FoundPlayer } from '../../api/search-players';
import { staffFailureText } from '../../utils/failure';
import { useReasonMessage } from '../../utils/reason-message';

type DialogProps = { player: FoundPlayer; onClose: () => void };

const REASON_FIELDS = ['reason'] as const;

/** 'Khóa tài khoản': what locking does and the reason, which is required. Mount it while open. */
export function LockDialog({ player, onClose }: DialogProps) {
  const { t } = useTranslation();
  const lock = useLockPlayer(player.id);
  const message = useReasonMessage();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<LockInput>({ resolver: zodResolver(lockInputSchema), defaultValues: { reason: '' } });
  const onSubmit = handleSubmit((input) =>
    lock.mutate(input, {
      onSuccess: (locked) => {
        toaster.success({ title: t('staff.players.lock.done', { username: locked.username }), closable: true });
        onClose();
      },
      onError: (error) => placeServerErrors(error, REASON_FIELDS, setError),
    }),
  );
  const failure = staffFailureText(lock.error, REASON_FIELDS);

  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('staff.players.lock.title', { username: player.username })}
      onSubmit={(event) => void onSubmit(event)}
      canSave
      pending={lock.isPending}
      failure={failure ? { title: t('staff.players.lock.failed'), text: failure } : null}
      saveLabel={t('staff.players.lock.confirm')}
      destructive
    >
      <Stack gap="4">
        <Text>{t('staff.players.lock.text')}</Text>
        <Field.Root required invalid={!!errors.reason}>
          <Field.Label>
            {t('staff.players.lock.reason')}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input {...register('reason')} autoComplete="off" />
          {errors.reason ? (
            <Field.ErrorText>{message(errors.reason)}</Field.ErrorText>
          ) : (
            <Field.HelperText>{t('staff.players.lock.reasonHelp')}</Field.HelperText>
          )}
        </Field.Root>
      </Stack>
    </FormDialog>
  );
}

/** 'Mở khóa tài khoản ...?' and 'Mở khóa'. Mount it while open. */
export function UnlockDialog({ player, onClose }: DialogProps) {
  const { t } = useTranslation();
  const unlock = useUnlockPlayer(player.id);
  const failure = staffFailureText(unlock.error);

  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('staff.players.unlock.title', { username: player.username })}
      onSubmit={(event) => {
        event.preventDefault();
        unlock.mutate(undefined, {
          onSuccess: (unlocked) => {
            toaster.success({ title: t('staff.players.unlock.done', { username: unlocked.username }), closable: true });
            onClose();
          },
        });
      }}
      canSave
      pending={unlock.isPending}
      failure={failure ? { title: t('staff.players.unlock.failed'), text: failure } : null}
      saveLabel={t('staff.players.unlock.confirm')}
    >
      <Text>{t('staff.players.unlock.text')}</Text>
    </FormDialog>
  );
}
