import { Field, Input, Stack, Text } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

import { FormDialog } from '@/components/ui/form-dialog';
import { toaster } from '@/components/ui/toaster-store';
import { placeServerErrors } from '@/lib/server-errors';

import type { CoinOrder } from '../../api/get-player';
import { refundInputSchema, useRefundOrder, type RefundInput } from '../../api/refund-order';
import { formatAmount } from '../../utils/amount';
import { staffFailureText } from '../../utils/failure';
import { useReasonMessage } from '../../utils/reason-message';

type RefundDialogProps = { order: CoinOrder; playerId: string; username: string; onClose: () => void };

const REASON_FIELDS = ['reason'] as const;

/**
 * 'Hoàn KP cho đơn nạp game': what the refund does and its reason (required), then 'Hoàn KP'.
 * The re-authentication a refund needs is the console client's. Mount it while open.
 */
export function RefundDialog({ order, playerId, username, onClose }: RefundDialogProps) {
  const { t } = useTranslation();
  const refund = useRefundOrder(playerId);
  const message = useReasonMessage();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<RefundInput>({ resolver: zodResolver(refundInputSchema), defaultValues: { reason: '' } });
  const onSubmit = handleSubmit((input) =>
    refund.mutate(
      { ...input, orderId: order.id },
      {
        onSuccess: (answer) => {
          toaster.success({
            title: answer.already
              ? t('staff.players.refund.already')
              : t('staff.players.refund.done', { kp: formatAmount(answer.order.credit), username }),
            closable: true,
          });
          onClose();
        },
        onError: (error) => placeServerErrors(error, REASON_FIELDS, setError),
      },
    ),
  );
  const failure = staffFailureText(refund.error, REASON_FIELDS);

  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('staff.players.refund.title')}
      onSubmit={(event) => void onSubmit(event)}
      canSave
      pending={refund.isPending}
      failure={failure ? { title: t('staff.players.refund.failed'), text: failure } : null}
      saveLabel={t('staff.players.refund.confirm')}
      destructive
    >
      <Stack gap="4">
        <Text>{t('staff.players.refund.text', { coins: formatAmount(order.coins), kp: formatAmount(order.credit) })}</Text>
        <Field.Root required invalid={!!errors.reason}>
          <Field.Label>
            {t('staff.players.refund.reason')}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input {...register('reason')} autoComplete="off" />
          {errors.reason ? (
            <Field.ErrorText>{message(errors.reason)}</Field.ErrorText>
          ) : (
            <Field.HelperText>{t('staff.players.refund.reasonHelp')}</Field.HelperText>
          )}
        </Field.Root>
      </Stack>
    </FormDialog>
  );
}
